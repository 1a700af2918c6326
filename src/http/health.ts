import { Router } from 'express';

/** One database as the readiness probe reports it (no address: the probe needs no token). */
export interface DatabaseState {
  readonly name: string;
  readonly role: 'primary' | 'replica';
  readonly state: 'up' | 'down' | 'lagging';
  readonly lagMs?: number;
}

/** The change relay to NATS (src/events/relay.ts), when EVENTS_NATS_URL is set. */
export interface EventsState {
  readonly broker: 'up' | 'down';
  /** publishing: this instance holds the relay lock; standby: another instance does. */
  readonly relay: 'publishing' | 'standby' | 'stopped';
  readonly lastPublishedSeq: string;
  /** Entries in the log not yet published. */
  readonly lagEntries: number;
  /** Age of the oldest entry not yet published (0 when none). */
  readonly lagSeconds: number;
}

/**
 * /healthz: the process is up. /readyz: the primary database answers (503 otherwise), with
 * the state of each database; a replica that is down or lagging does not make the service
 * unready, because reads then go to the primary. With the change relay, `events` shows the
 * broker and the relay's lag; a broker outage does not make the service unready either:
 * writes go on, and the relay catches up when the broker is back.
 */
export function healthRoutes(databases: () => Promise<readonly DatabaseState[]>, events?: () => Promise<EventsState>): Router {
  const r = Router();
  r.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  r.get('/readyz', async (_req, res) => {
    let list: readonly DatabaseState[];
    try {
      list = await withTimeout(databases(), 2000);
    } catch {
      list = [{ name: 'primary', role: 'primary', state: 'down' }];
    }
    const ready = list.some((d) => d.role === 'primary' && d.state === 'up');
    // The lag is read from the database: unknown while it is down.
    const relay = events && ready ? await withTimeout(events(), 2000).catch(() => undefined) : undefined;
    res.status(ready ? 200 : 503).json({
      status: ready ? 'ready' : 'unavailable',
      database: ready ? 'up' : 'down',
      databases: list,
      ...(events ? { events: relay ?? { state: 'unknown' } } : {}),
    });
  });
  return r;
}

/** The probe for a deployment with one database and no replicas. */
export const primaryOnly = (ping: () => Promise<void>) => async (): Promise<DatabaseState[]> => [
  {
    name: 'primary',
    role: 'primary',
    state: await ping().then(
      () => 'up' as const,
      () => 'down' as const,
    ),
  },
];

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const t = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timeout')), ms);
  });
  return Promise.race([p, t]).finally(() => clearTimeout(timer));
}
