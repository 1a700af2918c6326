import { DEMO_DATA_FILE } from '../../src/config/paths';
import { importReferenceData } from '../../src/import/import-service';
import { token } from '../support/app';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { fixture } from '../support/fixture';
import { privateNats, readStream, type PrivateNats } from '../support/nats';
import { freePort } from '../support/pg-cluster';
import { startService, type RunningService } from '../support/service';
import { until } from '../support/until';

// Two instances on one PostgreSQL database and one NATS: exactly one relay publishes (the
// holder of the advisory lock), the other stands by; when the publisher is killed (-9), the
// other takes over and publishes what was written since, with nothing lost or repeated.
// PostgreSQL only (jest.config.js): the embedded database belongs to one process.

jest.setTimeout(240_000);

let nats: PrivateNats;
let db: TestDatabase;
const services: RunningService[] = [];

beforeAll(async () => {
  nats = await privateNats();
  db = await createTestDatabase();
  await importReferenceData(db, DEMO_DATA_FILE);
});

afterAll(async () => {
  for (const s of services) if (s.child.exitCode === null && s.child.signalCode === null) await s.stop();
  await nats?.destroy();
  await db?.close();
});

async function state(svc: RunningService): Promise<{ relay: string; lagEntries: number; broker: string } | undefined> {
  const r = await fetch(`${svc.base}/readyz`).catch(() => undefined);
  return r?.ok ? ((await r.json()) as { events: { relay: string; lagEntries: number; broker: string } }).events : undefined;
}

it('one instance publishes, the other takes over when it dies', async () => {
  const env = {
    DATABASE_URL: db.url!,
    EVENTS_NATS_URL: nats.url,
    EVENTS_NATS_STREAM: 'TAKEOVER',
    EVENTS_NATS_SUBJECT_PREFIX: 'test.takeover',
    LOG_LEVEL: 'warn',
  };
  const a = startService(await freePort(), env);
  services.push(a);
  expect(await a.ready(120_000)).toBe(true);
  await until('the first instance to publish', async () => (await state(a))?.relay === 'publishing');
  const b = startService(await freePort(), env);
  services.push(b);
  expect(await b.ready(120_000)).toBe(true);
  expect((await state(b))?.relay).toBe('standby');

  const auth = `Bearer ${await token('billing.read billing.write')}`;
  const id = fixture.paymentSources[1]!.id;
  const write = async (svc: RunningService, description: string) => {
    const r = await fetch(`${svc.base}/api/v1/payment-sources/${id}`, {
      method: 'PATCH',
      headers: { authorization: auth, 'content-type': 'application/json' },
      body: JSON.stringify({ description }),
    });
    expect(r.status).toBe(200);
  };
  await write(b, 'takeover 1');
  a.child.kill('SIGKILL');
  await write(b, 'takeover 2');
  await until('the second instance to take over and catch up', async () => {
    const s = await state(b);
    return s?.relay === 'publishing' && s.broker === 'up' && s.lagEntries === 0;
  });
  await write(b, 'takeover 3');
  const events = await until('the last write in the stream', async () => {
    const all = await readStream(nats.url, 'TAKEOVER');
    return all.some((e) => e.event.data.changes.description?.new === 'takeover 3') ? all : undefined;
  });
  const ids = events.map((e) => e.event.id);
  expect(new Set(ids).size).toBe(ids.length);
  const mine = events
    .filter((e) => e.event.subject === id)
    .map((e) => e.event.data.changes.description?.new)
    .filter((v) => typeof v === 'string' && v.startsWith('takeover'));
  expect(mine).toEqual(['takeover 1', 'takeover 2', 'takeover 3']);
});
