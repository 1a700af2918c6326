import { openDatabase } from '../src/db/database';
import { runInReadScope } from '../src/domain/consistency';
import { Client } from 'pg';
(async () => {
  const admin = new Client({ connectionString: 'postgresql://postgres@127.0.0.1:5432/postgres' }); await admin.connect();
  await admin.query('DROP DATABASE IF EXISTS infra_tx'); await admin.query('CREATE DATABASE infra_tx');
  const url = 'postgresql://postgres@127.0.0.1:5432/infra_tx';
  const db = await openDatabase({ url, replicaUrls: [url] });
  for (const primaryOnly of [true, false]) {
    await runInReadScope({ primaryOnly }, async () => {
      const seen = await db.prisma.$transaction(async (tx) => {
        const a = await tx.account.create({ data: { code: 'X' + primaryOnly, name: 'x', type: 'Asset', isActive: true } as never });
        return tx.account.findUnique({ where: { id: a.id } });
      }).catch((e) => 'err ' + e.message);
      console.log('primaryOnly', primaryOnly, 'found inside tx:', seen !== null && typeof seen === 'object');
    });
  }
  await db.close(); await admin.query('DROP DATABASE infra_tx WITH (FORCE)'); await admin.end();
})();
