// Resolver types from schema.graphql. scripts/build.mjs runs this whenever schema.graphql, this
// file or the list of resources changed (npm test, npm start, npm run build); the output is
// not committed. Each resource's type, connection and edge map to the records the resolvers
// pass around (src/graphql/models.ts), one set per folder of src/domain with a resource.ts.
import type { CodegenConfig } from '@graphql-codegen/cli';
import { resourceFolders } from './scripts/resource-folders.mjs';

const resourceMappers = Object.fromEntries(
  resourceFolders(__dirname).flatMap(({ model }) => [
    [model, `../models#GraphModel<'${model}'>`],
    [`${model}Connection`, `../models#ConnectionOf<'${model}'>`],
    [`${model}Edge`, `../models#EdgeOf<'${model}'>`],
  ]),
);

const config: CodegenConfig = {
  overwrite: true,
  schema: 'schema.graphql',
  generates: {
    'src/graphql/__generated__/resolvers-types.ts': {
      plugins: ['typescript', 'typescript-resolvers'],
      config: {
        useTypeImports: true,
        enumsAsTypes: true,
        strictScalars: true,
        contextType: '../context#GraphqlContext',
        scalars: {
          UUID: 'string',
          DateTime: { input: 'Date', output: 'Date' },
          Decimal: { input: 'string', output: '{ toFixed(): string }' },
          FieldValue: { input: 'never', output: 'string | boolean | null | { toFixed(): string }' },
        },
        enumValues: {
          TaxType: { VAT: 'VAT', SALES_TAX: 'Sales Tax', EXEMPT: 'Exempt' },
          SortDirection: { ASC: 'asc', DESC: 'desc' },
          ChangeOperation: { CREATED: 'created', DELETED: 'deleted', UPDATED: 'updated' },
        },
        mappers: {
          ...resourceMappers,
          Quote: '../models#QuoteModel',
          QuoteLine: '../models#QuoteLineModel',
          QuoteTotals: '../models#QuoteTotalsModel',
          Change: '../models#ChangeModel',
          ChangeConnection: '../models#ChangeConnectionModel',
          ChangeEdge: '../models#ChangeEdgeModel',
        },
      },
    },
  },
};

export default config;
