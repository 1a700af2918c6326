// The unit of work of the service layer (src/db/unit-of-work.ts) on both databases: its writes
// are kept together or not at all, a unit inside a unit joins it, reads inside see its writes
// (on the embedded database, whose one connection the unit holds, without waiting for it), and
// a write the rules refuse inside a unit leaves the unit usable.

import { executeInUnit, inTransaction } from '../../src/db/unit-of-work';
import { WRITER_ID } from '../support/app';
import { useTestServices } from '../support/database';

const t = useTestServices();
const actor = { userId: WRITER_ID, personalData: true };
const unique = () => Math.random().toString(36).slice(2, 8).toUpperCase();
const account = (code: string) => ({ code, name: 'Unit', type: 'Expense' });
const accounts = () => t.s.writers.Account!;
const count = (codes: string[]) => t.db.prisma.account.count({ where: { code: { in: codes } } });

it('keeps every write of a unit that ends well, and reads inside it see them', async () => {
  const [a, b] = [`UA${unique()}`, `UB${unique()}`];
  const seen = await t.s.unitOfWork(async () => {
    const first = await accounts().create(account(a), actor);
    await accounts().create(account(b), actor);
    return (await t.s.readers.Account.get(first.id)).code;
  });
  expect(seen).toBe(a);
  expect(await count([a, b])).toBe(2);
});

it('keeps nothing of a unit that throws, a unit inside it included (it joins the outer one)', async () => {
  const [a, b] = [`UC${unique()}`, `UD${unique()}`];
  await expect(
    t.s.unitOfWork(async () => {
      await accounts().create(account(a), actor);
      await t.s.unitOfWork(() => accounts().create(account(b), actor));
      throw new Error('changed my mind');
    }),
  ).rejects.toThrow('changed my mind');
  expect(await count([a, b])).toBe(0);
  expect(await t.db.prisma.changeLog.count({ where: { changes: { path: ['code', 'new'], equals: a } } })).toBe(0);
});

it('a refused write inside a unit is its own savepoint: the unit goes on and keeps the others', async () => {
  const [a, b] = [`UE${unique()}`, `UF${unique()}`];
  const refused = await t.s.unitOfWork(async () => {
    await accounts().create(account(a), actor);
    const code = await accounts()
      .create(account(a.toLowerCase()), actor)
      .then(
        () => undefined,
        (e: { code?: string }) => e.code,
      );
    await accounts().create(account(b), actor);
    return code;
  });
  expect(refused).toBe('DUPLICATE_CODE');
  expect(await count([a, b])).toBe(2);
});

it("a statement sent through the adapter (executeInUnit) is the unit's: kept and rolled back with it, refused outside one", async () => {
  await expect(executeInUnit('SELECT 1', [])).rejects.toThrow(/no open unit of work/);
  // A transaction-local setting is seen by the unit's own statements, and gone after it.
  const setting = "SELECT current_setting('billing.unit_test', true) AS v";
  const inside = await inTransaction(t.db.prisma, async (db) => {
    await executeInUnit("SELECT set_config('billing.unit_test', $1, true)", ['in the unit']);
    return db.$queryRawUnsafe<Array<{ v: string | null }>>(setting);
  });
  expect(inside[0]!.v).toBe('in the unit');
  expect((await t.db.prisma.$queryRawUnsafe<Array<{ v: string | null }>>(setting))[0]!.v ?? '').toBe('');
});
