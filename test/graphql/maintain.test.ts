// Reference data written through GraphQL (billing.maintain): create<X>, update<X> (partial,
// ifMatch), delete<X> with the same rules and codes as REST, etags equal to REST's; each
// refused mutation leaves the tables and the change log as they were.

import request from 'supertest';
import { bearer, createTestApp, newId, token, WRITER_ID, type TestApp } from '../support/app';
import { fixture } from '../support/fixture';
import { gql, gqlOk } from '../support/graphql';

let t: TestApp;
let maintainer: string;

beforeAll(async () => {
  t = await createTestApp();
  // billing.pii too: customers' names and addresses are personal data.
  maintainer = await token('billing.read billing.maintain billing.pii', WRITER_ID);
});
afterAll(async () => {
  await t.close();
});

const revenueAccount = () => fixture.accounts.find((a) => a.type === 'Revenue' && a.isActive)!;
const liabilityAccount = () => fixture.accounts.find((a) => a.type === 'Liability' && a.isActive)!;
const unique = () => Math.random().toString(36).slice(2, 8).toUpperCase();

async function snapshot(): Promise<string> {
  const p = t.db.prisma;
  const [accounts, taxCodes, articles, customers, addresses, log] = await Promise.all([
    p.account.findMany({ orderBy: { id: 'asc' } }),
    p.taxCode.findMany({ orderBy: { id: 'asc' } }),
    p.article.findMany({ orderBy: { id: 'asc' } }),
    p.customer.findMany({ orderBy: { id: 'asc' } }),
    p.address.findMany({ orderBy: { id: 'asc' } }),
    p.changeLog.count(),
  ]);
  return JSON.stringify({ accounts, taxCodes, articles, customers, addresses, log });
}

async function refused(query: string, variables: Record<string, unknown>, code: string, tok = maintainer) {
  const before = await snapshot();
  const res = await gql(t, query, variables, tok);
  expect(res.errors?.map((e) => e.extensions.code)).toEqual([code]);
  expect(await snapshot()).toBe(before);
  return res;
}

const CREATE_ACCOUNT = 'mutation($input: AccountInput!) { createAccount(input: $input) { id code name type isActive etag } }';
const UPDATE_ACCOUNT =
  'mutation($id: ID!, $input: AccountInput!, $ifMatch: String) { updateAccount(id: $id, input: $input, ifMatch: $ifMatch) { id code name isActive etag } }';
const DELETE_ACCOUNT = 'mutation($id: ID!, $ifMatch: String) { deleteAccount(id: $id, ifMatch: $ifMatch) }';

describe('accounts through GraphQL', () => {
  it('creates, updates partially with ifMatch, and deletes; the etag is the REST ETag', async () => {
    const code = `G${unique()}`;
    const { createAccount: created } = await gqlOk(
      t,
      CREATE_ACCOUNT,
      { input: { code, name: 'GraphQL-Konto', type: 'Expense' } },
      maintainer,
    );
    expect(created).toMatchObject({ code, name: 'GraphQL-Konto', type: 'Expense', isActive: true });
    const rest = await request(t.http).get(`/api/v1/accounts/${created.id}`).set(bearer(maintainer)).expect(200);
    expect(created.etag).toBe(rest.headers.etag);

    const { updateAccount: updated } = await gqlOk(
      t,
      UPDATE_ACCOUNT,
      { id: created.id, input: { name: 'Neu' }, ifMatch: created.etag },
      maintainer,
    );
    expect(updated).toMatchObject({ code, name: 'Neu', isActive: true });
    expect(updated.etag).not.toBe(created.etag);
    await refused(UPDATE_ACCOUNT, { id: created.id, input: { name: 'stale' }, ifMatch: created.etag }, 'PRECONDITION_FAILED');
    await refused(DELETE_ACCOUNT, { id: created.id, ifMatch: created.etag }, 'PRECONDITION_FAILED');
    expect(await gqlOk(t, DELETE_ACCOUNT, { id: created.id, ifMatch: updated.etag }, maintainer)).toEqual({ deleteAccount: true });
    const log = await t.db.prisma.changeLog.findMany({ where: { recordId: created.id }, orderBy: { seq: 'asc' } });
    expect(log.map((e) => e.operation)).toEqual(['created', 'updated', 'deleted']);
  });

  it('needs billing.maintain; billing.write is not enough', async () => {
    const res = await refused(CREATE_ACCOUNT, { input: { code: `G${unique()}`, name: 'x', type: 'Asset' } }, 'FORBIDDEN', t.tokens.writer);
    expect(res.status).toBe(403);
  });

  it('refuses what REST refuses, with the same codes', async () => {
    await refused(CREATE_ACCOUNT, { input: { code: fixture.accounts[0]!.code.toLowerCase(), name: 'x', type: 'Asset' } }, 'DUPLICATE_CODE');
    const missing = await refused(CREATE_ACCOUNT, { input: { code: `G${unique()}`, type: 'Asset' } }, 'VALIDATION_FAILED');
    expect(missing.errors![0]!.extensions.errors).toEqual([{ field: 'name', message: 'is required' }]);
    const used = fixture.accounts.find((a) => fixture.paymentSources.some((s) => s.accountId === a.id))!;
    await refused(UPDATE_ACCOUNT, { id: used.id, input: { isActive: false } }, 'IN_USE');
    await refused(DELETE_ACCOUNT, { id: used.id }, 'IN_USE');
    await refused(DELETE_ACCOUNT, { id: newId() }, 'NOT_FOUND');
  });
});

describe('tax codes, articles, customers, terms through GraphQL', () => {
  it('writes a tax code with an exact rate and keeps its periods apart', async () => {
    const CREATE =
      'mutation($input: TaxCodeInput!) { createTaxCode(input: $input) { id code rate taxType validFrom validTo createdById etag } }';
    const input = {
      code: `GT${unique()}`,
      name: 'x',
      rate: '7.25',
      taxType: 'SALES_TAX',
      taxAccountId: liabilityAccount().id,
      revenueAccountId: revenueAccount().id,
      validFrom: '2099-01-01T00:00:00Z',
    };
    const { createTaxCode: tax } = await gqlOk(t, CREATE, { input }, maintainer);
    expect(tax).toMatchObject({ rate: 7.25, taxType: 'SALES_TAX', validTo: null, createdById: WRITER_ID });
    await refused(CREATE, { input: { ...input, validFrom: '2099-02-01T00:00:00Z' } }, 'PERIOD_OVERLAP');
    const v19 = fixture.taxCodes.find((c) => c.code === 'V19')!;
    await refused('mutation($id: ID!) { updateTaxCode(id: $id, input: { rate: 20 }) { id } }', { id: v19.id }, 'ALREADY_EFFECTIVE');
  });

  it('creates a customer with addresses and clears a field with null', async () => {
    const CREATE =
      'mutation($input: CustomerInput!) { createCustomer(input: $input) { id debtorNumber email addresses { id isDefault city } etag } }';
    const input = {
      firstName: 'Max',
      lastName: 'Muster',
      email: 'max@example.org',
      debtorNumber: `G${unique()}`,
      addresses: [{ addressType: 'Billing', street: 'A 1', city: 'B', postalCode: '1', country: 'DE', isDefault: true }],
    };
    const { createCustomer: c } = await gqlOk(t, CREATE, { input }, maintainer);
    expect(c.addresses).toEqual([{ id: expect.any(String), isDefault: true, city: 'B' }]);
    const rest = await request(t.http).get(`/api/v1/customers/${c.id}`).set(bearer(maintainer)).expect(200);
    expect(c.etag).toBe(rest.headers.etag);
    const { updateCustomer: u } = await gqlOk(
      t,
      'mutation($id: ID!) { updateCustomer(id: $id, input: { email: null }) { email addresses { city } } }',
      { id: c.id },
      maintainer,
    );
    expect(u).toEqual({ email: null, addresses: [{ city: 'B' }] });
    await refused(CREATE, { input: { ...input, addresses: [] } }, 'DUPLICATE_KEY');
    // Without billing.pii: a customer's names and an address's street are refused before anything is written.
    const withoutPii = await token('billing.read billing.maintain', WRITER_ID);
    await refused(CREATE, { input: { ...input, debtorNumber: `G${unique()}` } }, 'FORBIDDEN', withoutPii);
    await refused(
      'mutation($id: ID!) { updateCustomer(id: $id, input: { addresses: [{ addressType: "Home", street: "S 2", city: "C", postalCode: "2", country: "DE" }] }) { id } }',
      { id: c.id },
      'FORBIDDEN',
      withoutPii,
    );
  });

  it('creates and deletes an academic term and an article', async () => {
    const { createAcademicTerm: term } = await gqlOk(
      t,
      'mutation { createAcademicTerm(input: { code: "GQL-T", startDate: "2099-04-01T00:00:00Z", endDate: "2099-09-30T00:00:00Z" }) { id code } }',
      {},
      maintainer,
    );
    expect(await gqlOk(t, 'mutation($id: ID!) { deleteAcademicTerm(id: $id) }', { id: term.id }, maintainer)).toEqual({
      deleteAcademicTerm: true,
    });
    const { createArticle: article } = await gqlOk(
      t,
      'mutation { createArticle(input: { code: "GQL-A", name: "x" }) { id isActive useArticleCostCenter } }',
      {},
      maintainer,
    );
    expect(article).toMatchObject({ isActive: true, useArticleCostCenter: false });
    const { createArticlePrice: price } = await gqlOk(
      t,
      'mutation($a: UUID!) { createArticlePrice(input: { articleId: $a, amount: 12.5, validFrom: "2099-01-01T00:00:00Z" }) { id amount etag } }',
      { a: article.id },
      maintainer,
    );
    expect(price.amount).toBe(12.5);
    await refused('mutation($id: ID!) { deleteArticle(id: $id) }', { id: article.id }, 'IN_USE');
  });
});
