import { startPrimary } from '/work/wt/infra/test/support/pg-cluster';
import { openDatabase } from '/work/wt/infra/src/db/database';
const show = (label: string, e: any) => console.log(label, e?.constructor?.name, JSON.stringify({code: e?.code, name: e?.name, meta: e?.meta, cause: e?.cause, msg: String(e?.message).slice(0,300)}));
(async () => {
  const pg = startPrimary(55445);
  try {
    const db = await openDatabase({ url: pg.url(), poolMax: 3 });
    console.log(await db.prisma.account.count());
    pg.stop('fast');
    try { await db.prisma.account.count(); } catch (e) { show('count after fast stop', e); }
    try { await db.prisma.$transaction(async (tx) => tx.account.count()); } catch (e) { show('tx after stop', e); }
    try { await db.prisma.$queryRaw`SELECT 1`; } catch (e) { show('raw after stop', e); }
    pg.start();
    console.log('again', await db.prisma.account.count());
    await db.session.exec(`SET statement_timeout = 500`);
    try { await db.prisma.$queryRaw`SELECT pg_sleep(2)`; } catch (e) { show('sleep', e); }
    pg.stop('immediate');
    try { await db.prisma.account.findMany(); } catch (e) { show('after immediate', e); }
    await db.close();
  } finally { pg.destroy(); }
})();
