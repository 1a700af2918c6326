// Every query field of the GraphQL door through HTTP: single records (null for an unknown
// id), list fields, every relation, quotes, and the exact wire form of values.

import { createTestApp, WRITER_ID, type TestApp } from '../support/app';
import { defaultSource, fixture, idsOf } from '../support/fixture';
import { gql, gqlOk } from '../support/graphql';

let t: TestApp;
const UNKNOWN = '7e57a7e5-0000-4000-8000-00000000abcd';
const customerA = fixture.customers.find((c) => c.addresses.length >= 2)!;
const articleWithPrices = fixture.articles.find((a) => fixture.articlePrices.filter((p) => p.articleId === a.id).length >= 2)!;
let paymentIds: string[] = [];

beforeAll(async () => {
  t = await createTestApp();
  const actor = { userId: WRITER_ID, personalData: true };
  paymentIds = [];
  for (const [i, amount] of ['10.5', '20.25', '0.0001'].entries()) {
    const p = await t.services.payments.create(
      { customerId: customerA.id, amount, receivedAt: `2026-0${i + 1}-15T10:00:00Z`, reference: `R${i}` },
      actor,
    );
    paymentIds.push(p.id);
  }
});
afterAll(async () => {
  await t.close();
});

const SINGLE: Array<[string, string, string, () => { id: string } & Record<string, unknown>]> = [
  [
    'paymentSource',
    'PaymentSource',
    'id code name description accountId sourceType isActive isDefault createdAt createdById updatedAt updatedById',
    () => fixture.paymentSources[0]!,
  ],
  ['account', 'Account', 'id code name type isActive', () => fixture.accounts[0]!],
  [
    'article',
    'Article',
    'id code name description isActive defaultTaxCodeId defaultCostCenterId revenueAccountId useArticleCostCenter createdAt createdById updatedAt updatedById',
    () => fixture.articles[0]!,
  ],
  ['articlePrice', 'ArticlePrice', 'id articleId amount validFrom', () => fixture.articlePrices[0]!],
  [
    'customer',
    'Customer',
    'id firstName lastName matriculationId cmsStudentId email debtorNumber creditorNumber receivableAccountId prepaymentAccountId',
    () => {
      const { addresses: _a, ...rest } = customerA;
      return rest;
    },
  ],
  ['address', 'Address', 'id customerId addressType street city postalCode country isDefault', () => customerA.addresses[0]!],
  [
    'taxCode',
    'TaxCode',
    'id code name description rate validFrom validTo isActive taxAccountId revenueAccountId createdAt createdById updatedAt updatedById',
    () => {
      const { taxType: _t, ...rest } = fixture.taxCodes[0]!;
      return rest;
    },
  ],
  ['academicTerm', 'AcademicTerm', 'id code startDate endDate statisticalSemester externalSystemId', () => fixture.academicTerms[0]!],
];

describe('single-record fields', () => {
  it.each(SINGLE)('%s(id:) returns the record as the fixture has it', async (field, _type, fields, expected) => {
    const want = expected();
    const data = await gqlOk(t, `query($id: ID!) { ${field}(id: $id) { ${fields} } }`, { id: want.id.toUpperCase() });
    expect(data[field]).toEqual(want);
  });

  it.each(SINGLE)('%s(id:) is null for an unknown id', async (field) => {
    const res = await gql(t, `{ ${field}(id: "${UNKNOWN}") { id } }`);
    expect(res.status).toBe(200);
    expect(res.errors).toBeUndefined();
    expect(res.data).toEqual({ [field]: null });
  });

  it('payment(id:) returns a payment and null for an unknown id', async () => {
    const data = await gqlOk(
      t,
      `query($id: ID!) { payment(id: $id) { id paymentSourceId customerId amount receivedAt reference createdAt createdById } none: payment(id: "${UNKNOWN}") { id } }`,
      { id: paymentIds[1] },
    );
    expect(data.payment).toMatchObject({
      id: paymentIds[1],
      paymentSourceId: defaultSource().id,
      customerId: customerA.id,
      amount: 20.25,
      receivedAt: '2026-02-15T10:00:00.000Z',
      reference: 'R1',
      createdById: WRITER_ID,
    });
    expect(data.none).toBeNull();
  });

  it('aliased look-ups of one type share one batch and each get their record', async () => {
    const [a, b] = fixture.accounts;
    const data = await gqlOk(
      t,
      `{ a: account(id: "${a!.id}") { code } b: account(id: "${b!.id}") { code } c: account(id: "${UNKNOWN}") { code } }`,
    );
    expect(data).toEqual({ a: { code: a!.code }, b: { code: b!.code }, c: null });
  });
});

const LISTS: Array<[string, () => Array<{ id: string }>]> = [
  ['paymentSources', () => fixture.paymentSources],
  ['accounts', () => fixture.accounts],
  ['articles', () => fixture.articles],
  ['articlePrices', () => fixture.articlePrices],
  ['customers', () => fixture.customers],
  ['addresses', () => fixture.customers.flatMap((c) => c.addresses)],
  ['taxCodes', () => fixture.taxCodes],
  ['academicTerms', () => fixture.academicTerms],
];

describe('list fields', () => {
  it.each(LISTS)('%s lists every record by id, with totalCount, nodes, edges and pageInfo', async (field, rows) => {
    const expected = idsOf(rows());
    const data = await gqlOk(
      t,
      `{ ${field}(first: 1000) { totalCount nodes { id } edges { cursor node { id } } pageInfo { hasNextPage endCursor } } }`,
    );
    const conn = data[field];
    expect(conn.totalCount).toBe(expected.length);
    expect(conn.nodes.map((n: { id: string }) => n.id)).toEqual(expected);
    expect(conn.edges.map((e: { node: { id: string } }) => e.node.id)).toEqual(expected);
    expect(conn.pageInfo).toEqual({ hasNextPage: false, endCursor: conn.edges[conn.edges.length - 1].cursor });
  });

  it('payments lists the payments', async () => {
    const data = await gqlOk(t, '{ payments { totalCount nodes { id amount } } }');
    expect(data.payments.totalCount).toBe(3);
    expect(data.payments.nodes.map((n: { id: string }) => n.id)).toEqual([...paymentIds].sort());
  });

  it('first defaults to 100 and cuts the page with hasNextPage', async () => {
    const all = fixture.customers.flatMap((c) => c.addresses).length;
    expect(all).toBeGreaterThan(100);
    const data = await gqlOk(t, '{ addresses { nodes { id } pageInfo { hasNextPage } } }');
    expect(data.addresses.nodes).toHaveLength(100);
    expect(data.addresses.pageInfo.hasNextPage).toBe(true);
  });

  it('first: 0 gives an empty page with the count; endCursor is null', async () => {
    const data = await gqlOk(t, '{ customers(first: 0) { totalCount nodes { id } pageInfo { hasNextPage endCursor } } }');
    expect(data.customers).toEqual({ totalCount: fixture.customers.length, nodes: [], pageInfo: { hasNextPage: true, endCursor: null } });
  });

  it('first above 1000 or negative, and a negative offset, are VALIDATION_FAILED naming the argument', async () => {
    for (const [args, field] of [
      ['first: 1001', 'first'],
      ['first: -1', 'first'],
      ['offset: -1', 'offset'],
    ] as const) {
      const res = await gql(t, `{ accounts(${args}) { nodes { id } } }`);
      expect(res.errors?.[0]?.extensions).toMatchObject({ code: 'VALIDATION_FAILED', field });
    }
  });
});

describe('relations', () => {
  it('PaymentSource.account and PaymentSource.payments', async () => {
    const src = defaultSource();
    const data = await gqlOk(t, `{ paymentSource(id: "${src.id}") { account { id type } payments { id receivedAt } } }`);
    expect(data.paymentSource.account).toEqual({ id: src.accountId, type: 'Asset' });
    // Newest receivedAt first.
    expect(data.paymentSource.payments.map((p: { id: string }) => p.id)).toEqual([...paymentIds].reverse());
  });

  it('Payment.paymentSource and Payment.customer', async () => {
    const data = await gqlOk(
      t,
      '{ payments(orderBy: [{ receivedAt: ASC }]) { nodes { paymentSource { code } customer { id debtorNumber } } } }',
    );
    expect(data.payments.nodes).toEqual(
      paymentIds.map(() => ({
        paymentSource: { code: defaultSource().code },
        customer: { id: customerA.id, debtorNumber: customerA.debtorNumber },
      })),
    );
  });

  it('Account.paymentSources', async () => {
    const data = await gqlOk(t, '{ accounts(first: 1000) { nodes { id paymentSources { id code } } } }');
    for (const a of data.accounts.nodes as Array<{ id: string; paymentSources: Array<{ id: string; code: string }> }>) {
      const expected = fixture.paymentSources.filter((s) => s.accountId === a.id).sort((x, y) => (x.code < y.code ? -1 : 1));
      expect(a.paymentSources.map((s) => s.id)).toEqual(expected.map((s) => s.id));
    }
  });

  it('Article.prices (newest first), defaultTaxCode, revenueAccount; ArticlePrice.article', async () => {
    const data = await gqlOk(
      t,
      '{ articles(first: 1000) { nodes { id defaultTaxCodeId revenueAccountId prices { id validFrom article { id } } defaultTaxCode { id } revenueAccount { id } } } }',
    );
    for (const a of data.articles.nodes) {
      const prices = fixture.articlePrices
        .filter((p) => p.articleId === a.id)
        .sort((x, y) => Date.parse(y.validFrom) - Date.parse(x.validFrom));
      expect(a.prices.map((p: { id: string }) => p.id)).toEqual(prices.map((p) => p.id));
      for (const p of a.prices) expect(p.article.id).toBe(a.id);
      expect(a.defaultTaxCode).toEqual(a.defaultTaxCodeId ? { id: a.defaultTaxCodeId } : null);
      expect(a.revenueAccount).toEqual(a.revenueAccountId ? { id: a.revenueAccountId } : null);
    }
  });

  it('a list that selects a relation but not the key it follows still resolves it (the page reads what the relation needs)', async () => {
    const data = await gqlOk(
      t,
      `{
      customers(first: 1000) { nodes { id receivableAccount { id } prepaymentAccount { id } } }
      articles(first: 1000) { edges { node { id defaultTaxCode { id } revenueAccount { id } } } } }`,
    );
    expect(data.customers.nodes).toHaveLength(fixture.customers.length);
    for (const c of data.customers.nodes) {
      const want = fixture.customers.find((x) => x.id === c.id)!;
      expect(c.receivableAccount).toEqual(want.receivableAccountId ? { id: want.receivableAccountId } : null);
      expect(c.prepaymentAccount).toEqual(want.prepaymentAccountId ? { id: want.prepaymentAccountId } : null);
    }
    expect(data.customers.nodes.some((c: { receivableAccount: unknown }) => c.receivableAccount !== null)).toBe(true);
    expect(data.articles.edges).toHaveLength(fixture.articles.length);
    for (const { node: a } of data.articles.edges) {
      const want = fixture.articles.find((x) => x.id === a.id)!;
      expect(a.defaultTaxCode).toEqual(want.defaultTaxCodeId ? { id: want.defaultTaxCodeId } : null);
      expect(a.revenueAccount).toEqual(want.revenueAccountId ? { id: want.revenueAccountId } : null);
    }
    expect(data.articles.edges.some((e: { node: { defaultTaxCode: unknown } }) => e.node.defaultTaxCode !== null)).toBe(true);
  });

  it('Article.priceAt picks the price the pricing service picks, for dates around every validFrom', async () => {
    const prices = fixture.articlePrices.filter((p) => p.articleId === articleWithPrices.id);
    const dates = prices.flatMap((p) => [
      new Date(Date.parse(p.validFrom) - 1),
      new Date(p.validFrom),
      new Date(Date.parse(p.validFrom) + 86_400_000),
    ]);
    dates.push(new Date('1900-01-01T00:00:00Z'), new Date('2100-01-01T00:00:00Z'));
    const query = `{ article(id: "${articleWithPrices.id}") { ${dates.map((d, i) => `p${i}: priceAt(date: "${d.toISOString()}") { id amount validFrom }`).join(' ')} } }`;
    const data = await gqlOk(t, query);
    for (const [i, d] of dates.entries()) {
      const want = await t.services.pricing.priceAt(articleWithPrices.id, d);
      expect(data.article[`p${i}`]).toEqual(
        want ? { id: want.id, amount: Number(want.amount.toFixed()), validFrom: want.validFrom.toISOString() } : null,
      );
    }
  });

  it('Customer.addresses, defaultAddress, payments, receivableAccount, prepaymentAccount; Address.customer', async () => {
    const data = await gqlOk(
      t,
      `{
      customers(first: 1000) { nodes { id receivableAccountId prepaymentAccountId
        addresses { id isDefault customer { id } } defaultAddress { id } payments { id }
        receivableAccount { id } prepaymentAccount { id } } } }`,
    );
    expect(data.customers.nodes).toHaveLength(fixture.customers.length);
    for (const c of data.customers.nodes) {
      const want = fixture.customers.find((x) => x.id === c.id)!;
      expect(idsOf(c.addresses)).toEqual(idsOf(want.addresses));
      // The default address first.
      if (c.addresses.some((a: { isDefault: boolean }) => a.isDefault)) expect(c.addresses[0].isDefault).toBe(true);
      for (const a of c.addresses) expect(a.customer.id).toBe(c.id);
      const def = want.addresses.find((a) => a.isDefault);
      expect(c.defaultAddress).toEqual(def ? { id: def.id } : null);
      expect(c.payments.map((p: { id: string }) => p.id)).toEqual(c.id === customerA.id ? [...paymentIds].reverse() : []);
      expect(c.receivableAccount).toEqual(c.receivableAccountId ? { id: c.receivableAccountId } : null);
      expect(c.prepaymentAccount).toEqual(c.prepaymentAccountId ? { id: c.prepaymentAccountId } : null);
    }
  });

  it('Customer relations also resolve on a single customer and without addresses in the list', async () => {
    const data = await gqlOk(
      t,
      `{ customer(id: "${customerA.id}") { addresses { id } defaultAddress { id } }
      customers(first: 3) { nodes { id debtorNumber } } }`,
    );
    expect(idsOf(data.customer.addresses)).toEqual(idsOf(customerA.addresses));
    expect(data.customers.nodes).toHaveLength(3);
  });

  it('TaxCode.taxAccount and TaxCode.revenueAccount', async () => {
    const data = await gqlOk(t, '{ taxCodes { nodes { taxAccountId revenueAccountId taxAccount { id } revenueAccount { id } } } }');
    for (const tc of data.taxCodes.nodes) {
      expect(tc.taxAccount.id).toBe(tc.taxAccountId);
      expect(tc.revenueAccount.id).toBe(tc.revenueAccountId);
    }
  });
});

describe('values on the wire', () => {
  it('decimals are exact JSON numbers, tax types are the enum values, date-times ISO UTC', async () => {
    const res = await gql(
      t,
      '{ taxCodes(first: 100) { nodes { code rate taxType validFrom } } payments(orderBy: [{ amount: ASC }]) { nodes { amount } } }',
    );
    for (const tc of fixture.taxCodes) {
      expect(res.text).toContain(
        `"code":"${tc.code}","rate":${String(tc.rate)},"taxType":"${String(tc.taxType).toUpperCase().replace(' ', '_')}"`,
      );
    }
    expect(res.text).toContain('{"amount":0.0001}');
    expect(res.data!.taxCodes.nodes[0].validFrom).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  });
});

describe('quote', () => {
  const QUOTE = `query($input: QuoteInput!) { quote(input: $input) {
    lines { articleId quantity billingDate referenceDate priceId unitPrice netAmount taxCodeId taxRate taxAmount grossAmount costCenterId academicTermId
      article { id } taxCode { id } academicTerm { id } }
    totals { netAmount taxAmount grossAmount } } }`;

  it('prices lines as the pricing service does, with exact decimals', async () => {
    const lines = [
      { articleId: articleWithPrices.id, quantity: '2.5', billingDate: '2025-11-01T00:00:00Z' },
      { articleId: fixture.articles[1]!.id, quantity: 1, billingDate: '2025-05-01', priceGuaranteeDate: '2020-01-01' },
    ];
    const res = await gql(t, QUOTE, { input: { lines } });
    const want = await t.services.pricing.quote({ lines });
    expect(res.errors).toBeUndefined();
    const q = res.data!.quote;
    expect(q.lines).toHaveLength(2);
    for (const [i, line] of want.lines.entries()) {
      expect(q.lines[i]).toMatchObject({
        articleId: line.articleId,
        quantity: Number(line.quantity.toFixed()),
        billingDate: line.billingDate.toISOString(),
        referenceDate: line.referenceDate.toISOString(),
        priceId: line.priceId,
        unitPrice: Number(line.unitPrice.toFixed()),
        netAmount: Number(line.netAmount.toFixed()),
        taxCodeId: line.taxCodeId,
        taxRate: Number(line.taxRate.toFixed()),
        taxAmount: Number(line.taxAmount.toFixed()),
        grossAmount: Number(line.grossAmount.toFixed()),
        costCenterId: line.costCenterId,
        academicTermId: line.academicTermId,
        article: { id: line.articleId },
        taxCode: { id: line.taxCodeId },
        academicTerm: line.academicTermId ? { id: line.academicTermId } : null,
      });
    }
    expect(res.text).toContain(
      `"totals":{"netAmount":${want.totals.netAmount.toFixed()},"taxAmount":${want.totals.taxAmount.toFixed()},"grossAmount":${want.totals.grossAmount.toFixed()}}`,
    );
  });

  it('refuses an invalid quote with VALIDATION_FAILED naming the line field', async () => {
    const res = await gql(t, QUOTE, { input: { lines: [{ articleId: articleWithPrices.id, quantity: '0', billingDate: '2025-11-01' }] } });
    expect(res.errors?.[0]?.extensions).toMatchObject({ code: 'VALIDATION_FAILED', field: 'lines[0].quantity' });
    const unknown = await gql(t, QUOTE, { input: { lines: [{ articleId: UNKNOWN, quantity: 1, billingDate: '2025-11-01' }] } });
    expect(unknown.errors?.[0]?.extensions).toMatchObject({ code: 'VALIDATION_FAILED', field: 'lines[0].articleId' });
  });
});

describe('ids', () => {
  it('are GraphQL IDs as docs/service.md writes them, checked to be UUIDs', async () => {
    const ok = await gqlOk(t, 'query($id: ID!) { paymentSource(id: $id) { id } }', { id: defaultSource().id });
    expect(ok.paymentSource.id).toBe(defaultSource().id);
    for (const bad of ['"nope"', '42']) {
      const res = await gql(t, `{ paymentSource(id: ${bad}) { id } }`);
      expect(res.errors?.[0]?.extensions?.code).toBe('VALIDATION_FAILED');
      expect((res.data as { paymentSource?: unknown } | null | undefined)?.paymentSource ?? null).toBeNull();
    }
  });
});
