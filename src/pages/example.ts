/** The operation the browser tools open with (the Sandbox page at /graphql and GraphiQL). */
export const EXAMPLE_OPERATION = [
  'query PaymentSources {',
  '  paymentSources(first: 5) {',
  '    totalCount',
  '    nodes { code name sourceType isActive isDefault }',
  '  }',
  '}',
  '',
].join('\n');
