import type { Config } from '../config/config';
import type { Database } from '../db/database';
import { ChangeLogService, type ChangeEntry } from '../domain/change-log/service';
import type { Services } from '../domain/services';
import type { Logger } from '../http/logger';
import { stringifyJson } from '../http/json';
import { toMessage } from './cloudevents';
import { withoutPersonalData } from '../domain/change-log/redact';
import { JetStreamBroker } from './jetstream';
import { follow, type FollowOptions } from './live';
import { backlog, logHead, relayProgress } from './progress';
import type { EventsState } from '../http/health';
import { ChangeRelay } from './relay';
import { ChangeSignal } from './signal';
import { waiterRegistration } from './waiters';

// Change events of one instance: the database's notification of new change-log entries
// (one LISTEN session), the followers GraphQL subscriptions read from, and, with
// EVENTS_NATS_URL, the relay to NATS JetStream. main.ts starts it after the database and
// stops it after the HTTP server.

/** The channel a commit that appended to the change log notifies while a reader waits (./waiters.ts). */
export const CHANNEL = 'billing_change_log';
/** The relay's advisory lock key: 0x62696C72, "bilr" in ASCII (the log's own lock is "bill"). */
const RELAY_LOCK_KEY = 1651076210n;

export interface Events {
  /** The log after a cursor, then live (GraphQL subscriptions). */
  follow(o: FollowOptions): AsyncIterableIterator<ChangeEntry>;
  /** The relay's state for /readyz and /metrics; undefined without EVENTS_NATS_URL. */
  readonly relayStatus: (() => Promise<EventsState>) | undefined;
  stop(): Promise<void>;
}

export async function startEvents(o: { config: Config['events']; db: Database; services: Services; logger: Logger }): Promise<Events> {
  const signal = new ChangeSignal({ registration: waiterRegistration(o.db.background), pollMs: o.config.pollMs });
  const unlisten = await o.db.listen(CHANNEL, () => signal.notify());
  const read = (after: bigint, limit: number) => o.services.changeLog.changesAfter(after, limit);
  const source = { read, head: () => logHead(o.db.prisma), signal };

  const c = o.config;
  let relay: ChangeRelay | undefined;
  let broker: JetStreamBroker | undefined;
  if (c.natsUrl) {
    broker = new JetStreamBroker({
      url: c.natsUrl,
      stream: c.stream,
      subjectPrefix: c.subjectPrefix,
      duplicateWindowSeconds: c.duplicateWindowSeconds,
    });
    const b = broker;
    // The relay's statements go through the background pool: under a burst of writes the
    // request pool has callers waiting, and a read queued behind them was most of the relay's lag.
    const bg = o.db.background;
    const readLog = new ChangeLogService(bg);
    const relayRead = (after: bigint, limit: number) => readLog.changesAfter(after, limit);
    relay = new ChangeRelay({
      // EVENTS_PERSONAL_DATA=redacted: the entries as a reader without billing.pii sees them.
      read: c.redactPersonalData ? async (after, limit) => (await relayRead(after, limit)).map(withoutPersonalData) : relayRead,
      // `data` is the entry as both doors give it out (exact decimals, ISO times).
      toMessage: (e) => toMessage(e, { source: c.source, subjectPrefix: c.subjectPrefix, data: e, stringify: stringifyJson }),
      publish: (m, after) => b.publish(m, after),
      brokerUp: () => b.connected,
      progress: relayProgress(bg, c.stream),
      backlog: (after) => backlog(bg.prisma, after),
      lock: () => o.db.tryLock(RELAY_LOCK_KEY),
      signal,
      logger: o.logger,
    });
    broker.start();
    relay.start();
  }
  const r = relay;
  return {
    follow: (f) => follow(source, f),
    relayStatus: r ? () => r.status() : undefined,
    async stop() {
      await relay?.stop();
      await broker?.close();
      await unlisten();
      // Followers waiting for a notification read once more and end with their subscriptions.
      signal.notify();
    },
  };
}
