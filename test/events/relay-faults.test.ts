import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DEMO_DATA_FILE } from '../../src/config/paths';
import { importReferenceData } from '../../src/import/import-service';
import { token } from '../support/app';
import { createTestDatabase, usingPostgres, type TestDatabase } from '../support/database';
import { fixture } from '../support/fixture';
import { jetstream } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { privateNats, readStream, type PrivateNats, type StoredEvent } from '../support/nats';
import { freePort } from '../support/pg-cluster';
import { startService, type RunningService } from '../support/service';
import { until } from '../support/until';

// The relay to NATS JetStream under faults, with the real service (src/main.ts as a child
// process) on the test's database and a nats-server of the test's own:
//  - kill -9 of the service in the middle of a burst of writes, then a restart: the stream
//    holds every acknowledged write's entry exactly once (JetStream drops the relay's
//    repeats by Nats-Msg-Id), in seq order, so in order per record;
//  - NATS stopped for 20 s while writes go on: no write fails, /readyz stays 200 and shows
//    the broker down and the lag, /metrics shows the lag, and once NATS is back every entry
//    arrives, once and in order.

jest.setTimeout(300_000);

const records = fixture.paymentSources.slice(0, 4).map((p) => p.id);
let nats: PrivateNats;
let db: TestDatabase | undefined;
let dataDir: string | undefined;
let auth: string;
const running: RunningService[] = [];

interface Readiness {
  status: string;
  events?: { broker: string; relay: string; lagEntries: number; lagSeconds: number; lastPublishedSeq: string };
}

async function readiness(svc: RunningService): Promise<{ status: number; body: Readiness }> {
  const r = await fetch(`${svc.base}/readyz`);
  return { status: r.status, body: (await r.json()) as Readiness };
}

async function service(stream: string): Promise<RunningService> {
  const port = await freePort();
  const svc = startService(port, {
    ...(db?.url ? { DATABASE_URL: db.url } : { DATA_DIR: dataDir! }),
    EVENTS_NATS_URL: nats.url,
    EVENTS_NATS_STREAM: stream,
    EVENTS_NATS_SUBJECT_PREFIX: `test.${stream.toLowerCase()}`,
    LOG_LEVEL: 'warn',
  });
  running.push(svc);
  if (!(await svc.ready(120_000))) throw new Error(`the service did not start:\n${svc.output()}`);
  return svc;
}

/** Writers: one per record, each updating its record's description to <tag><record>-<n>, one after another. */
function writers(tag: string, svc: () => RunningService) {
  const acked = new Map<string, string[]>(records.map((id) => [id, []]));
  const failed: string[] = [];
  let stopped = false;
  const done = Promise.all(
    records.map(async (id, r) => {
      for (let n = 0; !stopped; n++) {
        const value = `${tag}${r}-${n}`;
        try {
          const res = await fetch(`${svc().base}/api/v1/payment-sources/${id}`, {
            method: 'PATCH',
            headers: { authorization: auth, 'content-type': 'application/json' },
            body: JSON.stringify({ description: value }),
          });
          if (res.status !== 200) {
            failed.push(`${value}: ${res.status} ${await res.text()}`);
            return;
          }
          acked.get(id)!.push(value);
        } catch {
          // The service went away under the request: not acknowledged.
          return;
        }
      }
    }),
  );
  return {
    acked,
    failed,
    count: () => [...acked.values()].reduce((n, v) => n + v.length, 0),
    async stop() {
      stopped = true;
      await done;
    },
  };
}

async function caughtUp(svc: RunningService): Promise<void> {
  await until(
    'the relay to catch up',
    async () => {
      const { body } = await readiness(svc);
      return body.events?.broker === 'up' && body.events.relay === 'publishing' && body.events.lagEntries === 0;
    },
    { timeoutMs: 120_000 },
  );
}

/** Every acknowledged value exactly once on its record's subject; the stream in seq order, no id twice. */
function expectDelivered(events: readonly StoredEvent[], acked: ReadonlyMap<string, readonly string[]>): void {
  const ids = events.map((e) => e.event.id);
  expect(new Set(ids).size).toBe(ids.length);
  for (const e of events) {
    expect(e.msgId).toBe(e.event.id);
    expect(e.event).toMatchObject({
      specversion: '1.0',
      datacontenttype: 'application/json',
      subject: e.event.data.recordId,
      type: `billing.${e.event.data.resource}.${e.event.data.operation}`,
    });
    expect(e.event.data.id).toBe(e.event.id);
  }
  const seqs = events.map((e) => BigInt(e.event.data.seq));
  for (let i = 1; i < seqs.length; i++) expect(seqs[i]! > seqs[i - 1]!).toBe(true);
  for (const [id, values] of acked) {
    const published = events
      .filter((e) => e.event.subject === id && e.event.data.changes.description)
      .map((e) => String(e.event.data.changes.description!.new));
    // Every acknowledged value once; an unacknowledged one (in flight at a kill) at most once.
    for (const v of values) expect(published.filter((p) => p === v)).toEqual([v]);
    // In order per record: the record's writes in the order they were made.
    const ours = published.filter((p) => values.includes(p));
    expect(ours).toEqual(values);
  }
}

beforeAll(async () => {
  nats = await privateNats();
  auth = `Bearer ${await token('billing.read billing.write')}`;
  // The service loads the demo data itself only into an empty embedded database.
  if (usingPostgres()) {
    db = await createTestDatabase();
    await importReferenceData(db, DEMO_DATA_FILE);
  } else dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'relay-faults-'));
});

afterAll(async () => {
  for (const s of running) {
    if (s.child.exitCode === null && s.child.signalCode === null) await s.stop();
  }
  await nats?.destroy();
  await db?.close();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

it('kill -9 during a burst of writes, then a restart: every acknowledged write once in the stream, in order per record', async () => {
  let svc = await service('KILLED');
  const w = writers('burst', () => svc);
  await until('a burst of acknowledged writes', () => w.count() >= 80 || w.failed.length > 0);
  svc.child.kill('SIGKILL');
  await w.stop();
  expect(w.failed).toEqual([]);

  svc = await service('KILLED');
  // Writes go on after the restart.
  const after = writers('restarted', () => svc);
  await until('writes after the restart', () => after.count() >= 8 || after.failed.length > 0);
  await after.stop();
  expect(after.failed).toEqual([]);
  await caughtUp(svc);

  const events = await readStream(nats.url, 'KILLED');
  const acked = new Map(records.map((id) => [id, [...w.acked.get(id)!, ...after.acked.get(id)!]]));
  expectDelivered(events, acked);
  await svc.stop();
});

it('NATS stopped for 20 s during writes: no write fails, /readyz and /metrics show the lag, every entry arrives once NATS is back', async () => {
  const svc = await service('OUTAGE');
  await caughtUp(svc);
  const w = writers('outage', () => svc);
  await until('writes while NATS is up', () => w.count() >= 20 || w.failed.length > 0);
  expect(w.failed).toEqual([]);

  await nats.stop();
  const stoppedAt = Date.now();
  const during = await until('/readyz to show the broker down and a lag', async () => {
    const r = await readiness(svc);
    return r.body.events?.broker === 'down' && r.body.events.lagEntries > 0 ? r : undefined;
  });
  expect(during.status).toBe(200);
  expect(during.body.status).toBe('ready');
  const metrics = await (await fetch(`${svc.base}/metrics`)).text();
  expect(Number(/^change_relay_lag_entries (\d+)/m.exec(metrics)?.[1])).toBeGreaterThan(0);
  expect(metrics).toMatch(/^change_relay_broker_up 0$/m);
  expect(metrics).toMatch(/^change_relay_lag_seconds \d/m);
  // The outage the issue names: 20 s of writes without the broker.
  await new Promise((r) => setTimeout(r, Math.max(0, 20_000 - (Date.now() - stoppedAt))));
  const duringOutage = w.count();
  await nats.start();
  await until('more writes after NATS is back', () => w.count() >= duringOutage + 8 || w.failed.length > 0);
  await w.stop();
  expect(w.failed).toEqual([]);
  await caughtUp(svc);

  expectDelivered(await readStream(nats.url, 'OUTAGE'), w.acked);
  await svc.stop();
});

it('another publisher on the stream: the relay keeps every entry once and in order (its predecessor checks fail, it goes one at a time)', async () => {
  const svc = await service('SHARED');
  await caughtUp(svc);
  const w = writers('shared', () => svc);
  const nc = await connect({ servers: nats.url });
  const js = jetstream(nc);
  let foreign = 0;
  try {
    // Foreign messages land between the relay's publishes while the writes go on.
    await until('writes with foreign messages among them', async () => {
      await js.publish('test.shared.foreign', JSON.stringify({ foreign: foreign++ }));
      return (w.count() >= 40 && foreign >= 20) || w.failed.length > 0;
    });
  } finally {
    await w.stop();
    await nc.close();
  }
  expect(w.failed).toEqual([]);
  await caughtUp(svc);
  const stored = await readStream(nats.url, 'SHARED');
  expect(stored.filter((e) => e.subject === 'test.shared.foreign')).toHaveLength(foreign);
  expectDelivered(
    stored.filter((e) => e.subject !== 'test.shared.foreign'),
    w.acked,
  );
  await svc.stop();
});
