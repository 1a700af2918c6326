// Two real OData client libraries, unmodified, against the running app on an ephemeral
// port: @odata/client (OData V4 mode) and o.js. Each lists with filter/orderby/top/count,
// reads all pages, retrieves by key, counts, updates with PATCH, sees an error as an error,
// and expands a relation.
import { OData } from '@odata/client';
import { listen } from '../../support/live-app';
import { o } from 'o.js';
import { createTestApp, WRITER_ID, type TestApp } from '../../support/app';
import { activeAssetAccount, fixture } from '../../support/fixture';

let t: TestApp;
let server: Awaited<ReturnType<typeof listen>>;
let root: string;
const UNKNOWN = '5d6c7b8a-0000-4000-8000-000000000000';

interface Source {
  id: string;
  code: string;
  name: string;
  isActive: boolean;
  accountId: string;
  account?: { id: string; code: string };
}

beforeAll(async () => {
  t = await createTestApp();
  for (let i = 0; i < 120; i++) {
    await t.services.paymentSources.create(
      {
        code: `CLI-${String(i).padStart(3, '0')}`,
        name: `Client ${i}`,
        accountId: activeAssetAccount().id,
        sourceType: 'Other',
        isActive: i % 3 !== 0,
      },
      { userId: WRITER_ID, personalData: true },
    );
  }
  server = await listen(t.app);
  root = `${server.base}/api/v1`;
});
afterAll(async () => {
  await server.close();
  await t.close();
});

const total = () => t.db.prisma.paymentSource.count();
const activeCount = () => t.db.prisma.paymentSource.count({ where: { isActive: true } });

describe('@odata/client', () => {
  const client = () => OData.New4({ serviceEndpoint: `${root}/`, commonHeaders: { Authorization: `Bearer ${t.tokens.writer}` } });
  const sources = () => client().getEntitySet<Source>('payment-sources');

  test('lists with filter, orderby, top and count', async () => {
    const c = client();
    const filter = c.newFilter().field('isActive').eq(true);
    const rows = await sources().query(c.newOptions().filter(filter).orderby('code', 'desc').top(5).count(true));
    expect(rows).toHaveLength(5);
    expect(rows.every((r) => r.isActive)).toBe(true);
    expect(rows.map((r) => r.code)).toEqual([...rows.map((r) => r.code)].sort().reverse());
    expect(await sources().count(filter)).toBe(await activeCount());
  });

  test('reads every page: all in one response with $top up to 1000, or page by page with $skip', async () => {
    const c = client();
    const all = await sources().query(c.newOptions().top(1000).orderby('code'));
    expect(all).toHaveLength(await total());
    const pages: Source[] = [];
    for (let skip = 0; ; skip += 100) {
      const page = await sources().query(c.newOptions().orderby('code').skip(skip));
      pages.push(...page);
      if (page.length < 100) break;
    }
    expect(pages.map((r) => r.id)).toEqual(all.map((r) => r.id));
  });

  test('retrieves by key, counts, and updates with PATCH', async () => {
    const s = fixture.paymentSources[0]!;
    const one = await sources().retrieve(s.id);
    expect(one).toMatchObject({ id: s.id, code: s.code });
    expect(await sources().count()).toBe(await total());
    const target = (await sources().query(client().newOptions().filter(client().newFilter().field('code').eqString('CLI-007'))))[0]!;
    await sources().update(target.id, { name: 'Renamed by @odata/client' });
    expect(await sources().retrieve(target.id)).toMatchObject({
      name: 'Renamed by @odata/client',
      code: 'CLI-007',
      updatedById: WRITER_ID,
    });
  });

  test('an error is an error', async () => {
    await expect(sources().retrieve(UNKNOWN)).rejects.toThrow(/No payment source/);
    await expect(sources().update(UNKNOWN, { name: 'x' })).rejects.toThrow(/No payment source/);
    await expect(sources().update(fixture.paymentSources[0]!.id, { code: '' })).rejects.toThrow();
    await expect(sources().query(client().newOptions().filter('bogus eq 1'))).rejects.toThrow(/unknown field 'bogus'/);
  });

  test('expands a relation', async () => {
    const rows = await sources().query(client().newOptions().expand('account').top(3));
    for (const r of rows) expect(r.account?.id).toBe(r.accountId);
  });
});

describe('o.js', () => {
  const handler = () =>
    o(`${root}/`, { headers: new Headers({ Authorization: `Bearer ${t.tokens.writer}`, 'Content-Type': 'application/json' }) });

  test('lists with filter, orderby, top and count', async () => {
    const rows: Source[] = await handler()
      .get('payment-sources')
      .query({ $filter: "isActive eq true and startswith(code, 'CLI-')", $orderby: 'code', $top: 4, $count: true });
    expect(rows.map((r) => r.code)).toEqual(['CLI-001', 'CLI-002', 'CLI-004', 'CLI-005']);
    const count = await handler().get('payment-sources/$count').query({ $filter: 'isActive eq true' });
    expect(Number(count)).toBe(await activeCount());
  });

  test('reads every page with $top=1000 in one response', async () => {
    const rows: Source[] = await handler().get('payment-sources').query({ $top: 1000 });
    expect(rows).toHaveLength(await total());
  });

  test('looks up by key and updates with PATCH', async () => {
    const s = fixture.paymentSources[1]!;
    const one: Source = await handler().get(`payment-sources('${s.id}')`).query();
    expect(one).toMatchObject({ id: s.id, code: s.code });
    const target = (await handler().get('payment-sources').query({ $filter: "code eq 'CLI-010'" }))[0] as Source;
    await handler().patch(`payment-sources(${target.id})`, { name: 'Renamed by o.js' }).query();
    const after: Source = await handler().get(`payment-sources(${target.id})`).query();
    expect(after.name).toBe('Renamed by o.js');
  });

  test('an error is an error', async () => {
    await expect(handler().get(`payment-sources(${UNKNOWN})`).query()).rejects.toBeTruthy();
    await expect(handler().get('payment-sources').query({ $filter: 'bogus eq 1' })).rejects.toBeTruthy();
  });

  test('expands a relation', async () => {
    const rows: Source[] = await handler().get('payment-sources').query({ $expand: 'account', $top: 2 });
    for (const r of rows) expect(r.account?.id).toBe(r.accountId);
  });
});
