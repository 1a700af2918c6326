import { loadConfig } from '../../src/config/config';
import { startEvents, type Events } from '../../src/events/events';
import { createLogger } from '../../src/http/logger';
import type { TestDatabase } from './database';
import { servicesOf } from './database';
import type { PrivateNats } from './nats';
import { until } from './until';

/**
 * The database's events with a relay to the private NATS's `stream`, returned once the relay
 * publishes and has published every entry the database held.
 */
export async function startRelay(db: TestDatabase, nats: PrivateNats, stream: string): Promise<Events> {
  const config = loadConfig({
    EVENTS_NATS_URL: nats.url,
    EVENTS_NATS_STREAM: stream,
    EVENTS_NATS_SUBJECT_PREFIX: `test.${stream.toLowerCase()}`,
  });
  const events = await startEvents({ config: config.events, db, services: servicesOf(db), logger: createLogger('silent') });
  await until(
    'the relay to publish what the database holds',
    async () => {
      const status = await events.relayStatus!();
      return status.relay === 'publishing' && status.lagEntries === 0;
    },
    { timeoutMs: 30_000 },
  );
  return events;
}
