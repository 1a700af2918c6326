import { createTestApp, type TestApp } from '../support/app';
import { fixture } from '../support/fixture';
import { gql, gqlCode, gqlOk } from '../support/graphql';

// The change log through GraphQL: the `changes` connection in feed order with `after`
// cursors that can be polled, and the `history` field of the resource types, batched.

let t: TestApp;
const statements: string[] = [];
beforeAll(async () => {
  t = await createTestApp({ onQuery: (sql) => statements.push(sql) });
});
afterAll(() => t.close());

const PAGE = `query($after: String, $where: ChangeWhere, $first: Int) {
  changes(where: $where, first: $first, after: $after) {
    totalCount
    nodes { id seq resource recordId operation userId occurredAt requestId importRunId changes { field old new } }
    pageInfo { hasNextPage endCursor }
  }
}`;

interface ChangePage {
  changes: {
    totalCount: number;
    nodes: Array<{
      id: string;
      seq: string;
      resource: string;
      recordId: string;
      operation: string;
      changes: Array<{ field: string; old: unknown; new: unknown }>;
    }>;
    pageInfo: { hasNextPage: boolean; endCursor: string };
  };
}

it('needs billing.audit for changes and history', async () => {
  expect(await gqlCode(t, '{ changes(first: 1) { nodes { id } } }', undefined, t.tokens.writer)).toBe('FORBIDDEN');
  const res = await gql(t, '{ paymentSources(first: 1) { nodes { id history { id } } } }', undefined, t.tokens.writer);
  expect(res.errors?.[0]?.extensions.code).toBe('FORBIDDEN');
  expect(await gqlCode(t, '{ changes(first: 1) { nodes { id } } }', undefined, null)).toBe('UNAUTHENTICATED');
});

it('pages the feed with after, and a poll with the last endCursor gives only what was committed since', async () => {
  const seen: string[] = [];
  let after: string | undefined;
  let total = 0;
  for (;;) {
    const { changes } = await gqlOk<ChangePage>(t, PAGE, { after, first: 40 }, t.tokens.auditor);
    total = changes.totalCount;
    seen.push(...changes.nodes.map((n) => n.id));
    after = changes.pageInfo.endCursor;
    if (!changes.pageInfo.hasNextPage) break;
  }
  expect(new Set(seen).size).toBe(seen.length);
  expect(seen).toHaveLength(total);

  const idle = await gqlOk<ChangePage>(t, PAGE, { after }, t.tokens.auditor);
  expect(idle.changes.nodes).toEqual([]);
  expect(idle.changes.pageInfo.endCursor).toBe(after);

  const customer = fixture.customers[0]!.id;
  const made = await gqlOk<{ createPayment: { id: string } }>(
    t,
    `mutation { createPayment(input: { customerId: "${customer}", amount: "1234567890.1234" }) { id } }`,
  );
  const fresh = await gql<ChangePage>(t, PAGE, { after }, t.tokens.auditor);
  const nodes = fresh.data!.changes.nodes;
  expect(nodes.map((n) => [n.resource, n.recordId, n.operation])).toEqual([['payment', made.createPayment.id, 'CREATED']]);
  expect(fresh.text).toContain('{"field":"amount","old":null,"new":1234567890.1234}');

  // where on the catalogue's fields, the enum as GraphQL names it.
  const created = await gqlOk<ChangePage>(
    t,
    PAGE,
    { where: { resource: { eq: 'payment' }, operation: { eq: 'CREATED' } } },
    t.tokens.auditor,
  );
  expect(created.changes.nodes.map((n) => n.recordId)).toEqual([made.createPayment.id]);
  expect(await gqlCode(t, PAGE, { after: 'not-a-cursor' }, t.tokens.auditor)).toBe('INVALID_QUERY');
});

it('gives each record its history, one statement for a page of records', async () => {
  const id = fixture.paymentSources[0]!.id;
  await gqlOk(t, `mutation { updatePaymentSource(id: "${id}", input: { name: "Renamed in GraphQL" }) { id } }`);
  const query = (first: number) =>
    `{ paymentSources(first: ${first}, orderBy: [{ code: ASC }]) { nodes { id history { operation changes { field old new } } } } }`;
  const count = async (first: number) => {
    statements.length = 0;
    const data = await gqlOk<{
      paymentSources: {
        nodes: Array<{ id: string; history: Array<{ operation: string; changes: Array<{ field: string; old: unknown; new: unknown }> }> }>;
      };
    }>(t, query(first), undefined, t.tokens.auditor);
    return { data, log: statements.filter((s) => s.includes('"ChangeLog"')).length };
  };
  const small = await count(2);
  const all = await count(fixture.paymentSources.length);
  expect(small.log).toBe(1);
  expect(all.log).toBe(1);
  const mine = all.data.paymentSources.nodes.find((n) => n.id === id)!;
  expect(mine.history.map((h) => h.operation)).toEqual(['CREATED', 'UPDATED']);
  expect(mine.history[1]!.changes.find((c) => c.field === 'name')).toEqual({
    field: 'name',
    old: fixture.paymentSources[0]!.name,
    new: 'Renamed in GraphQL',
  });
  // Addresses have histories of their own, which their customer's holds too (test/change-log/customer-history.test.ts).
  const customer = fixture.customers[0]!;
  const c = await gqlOk<{ customer: { history: unknown[]; addresses: Array<{ id: string; history: unknown[] }> } }>(
    t,
    `{ customer(id: "${customer.id}") { history { resource recordId operation } addresses { id history { operation } } } }`,
    undefined,
    t.tokens.auditor,
  );
  expect(c.customer.addresses.length).toBeGreaterThan(0);
  expect(c.customer.history).toEqual([
    { resource: 'customer', recordId: customer.id, operation: 'CREATED' },
    ...customer.addresses.map((a) => ({ resource: 'address', recordId: a.id, operation: 'CREATED' })),
  ]);
  expect(c.customer.addresses.every((a) => a.history.length === 1)).toBe(true);
});
