import { PrismaPg } from '@prisma/adapter-pg';
import type { Pool } from 'pg';
import type { PrismaClient } from './__generated__/prisma/client';
import { isDatabaseUnavailable, isStatementTimeout } from './errors';
import { callModel, READ_METHODS, routeStatements, type PgAdapter, type ResultSet, type SqlQuery } from './prisma-internals';

// Reads on PostgreSQL streaming replicas, under the one Prisma client the services use.
//
// One Prisma client per role: the primary's, and a read client whose driver adapter spreads
// plain SELECTs over the replicas that are up and within the lag bound, and falls back to
// the primary. routeReads() puts both behind the one PrismaClient the services are written
// against, so no service changes: model reads go to the read client when the request's
// read scope allows it (asked through DatabaseOptions.replicaReadsAllowed), everything else to the primary.
//
// Why not @prisma/extension-read-replicas: it sends reads to a replica picked at random
// and knows nothing of a replica being down or behind (a stopped replica would fail
// requests), read-your-writes would need `$primary()` calls in the services, and its
// extended client is a different type from the PrismaClient the service layer uses.
// A replica that fails to answer is marked down and the statement runs on the primary
// instead, so a replica outage costs no request an error.

export interface ReplicaHealth {
  readonly name: string;
  readonly role: 'replica';
  /** up: answering and within the lag bound; lagging: answering but behind; down: not answering or not streaming. */
  readonly state: 'up' | 'lagging' | 'down';
  readonly lagMs?: number;
}

const READ = /^\s*(?:SELECT|WITH)\b/i;
const LOCKING = /\bFOR\s+(?:UPDATE|SHARE|NO\s+KEY\s+UPDATE|KEY\s+SHARE)\b/i;
/** A statement a hot standby can answer and that changes nothing. */
export const isPlainRead = (sql: string): boolean => READ.test(sql) && !LOCKING.test(sql);

// Lag in milliseconds as the replica sees it: 0 when it has replayed all it received,
// otherwise the age of the last replayed transaction. A replica that is not streaming from
// its primary (no WAL receiver) cannot tell how far behind it is: it counts as down.
const HEALTH_SQL = `
  SELECT pg_is_in_recovery() AS standby,
         (SELECT status FROM pg_stat_wal_receiver LIMIT 1) AS receiver,
         CASE WHEN pg_last_wal_receive_lsn() = pg_last_wal_replay_lsn() THEN 0
              ELSE COALESCE(EXTRACT(EPOCH FROM now() - pg_last_xact_replay_timestamp()) * 1000, 0)
         END::float8 AS lag_ms`;

class Replica {
  state: ReplicaHealth['state'] = 'down';
  lagMs: number | undefined;
  private adapter: Promise<PgAdapter> | undefined;

  constructor(
    readonly name: string,
    readonly pool: Pool,
  ) {}

  connect(): Promise<PgAdapter> {
    this.adapter ??= new PrismaPg(this.pool).connect();
    return this.adapter;
  }

  async check(maxLagMs: number): Promise<void> {
    try {
      // Bounded by the pool's connection and query timeouts (src/db/database.ts).
      const { rows } = await this.pool.query<{ standby: boolean; receiver: string | null; lag_ms: number }>(HEALTH_SQL);
      const row = rows[0];
      if (!row?.standby || row.receiver !== 'streaming') {
        this.state = 'down';
        this.lagMs = undefined;
        return;
      }
      this.lagMs = Math.round(row.lag_ms);
      this.state = this.lagMs <= maxLagMs ? 'up' : 'lagging';
    } catch {
      this.state = 'down';
      this.lagMs = undefined;
    }
  }

  health(): ReplicaHealth {
    return { name: this.name, role: 'replica', state: this.state, ...(this.lagMs === undefined ? {} : { lagMs: this.lagMs }) };
  }
}

export interface ReplicaSetOptions {
  readonly maxLagMs: number;
  /** How often each replica's state and lag are measured. */
  readonly checkEveryMs?: number;
  /** Called when a replica changes state (for the log). */
  readonly onStateChange?: (health: ReplicaHealth) => void;
}

export class ReplicaSet {
  private readonly replicas: Replica[];
  private next = 0;
  private timer: NodeJS.Timeout | undefined;
  private checking: Promise<void> | undefined;

  constructor(
    pools: readonly Pool[],
    private readonly o: ReplicaSetOptions,
  ) {
    this.replicas = pools.map((p, i) => new Replica(`replica ${i + 1}`, p));
  }

  /** Measures every replica now, then every checkEveryMs. */
  async start(): Promise<void> {
    await this.checkAll();
    this.timer = setInterval(() => void this.checkAll(), this.o.checkEveryMs ?? 1000);
    this.timer.unref();
  }

  checkAll(): Promise<void> {
    this.checking ??= Promise.all(
      this.replicas.map(async (r) => {
        const before = r.state;
        await r.check(this.o.maxLagMs);
        if (r.state !== before) this.o.onStateChange?.(r.health());
      }),
    ).then(
      () => (this.checking = undefined),
      () => (this.checking = undefined),
    );
    return this.checking;
  }

  stop(): void {
    clearInterval(this.timer);
  }

  health(): ReplicaHealth[] {
    return this.replicas.map((r) => r.health());
  }

  /** The next replica that is up, round robin; undefined when none is. */
  private pick(): Replica | undefined {
    for (let i = 0; i < this.replicas.length; i++) {
      const r = this.replicas[(this.next + i) % this.replicas.length];
      if (r?.state === 'up') {
        this.next = (this.next + i + 1) % this.replicas.length;
        return r;
      }
    }
    return undefined;
  }

  /** Runs a plain read on a replica, or on the primary when none is up or the replica fails. */
  async read(q: SqlQuery, onPrimary: (q: SqlQuery) => Promise<ResultSet>): Promise<ResultSet> {
    const replica = this.pick();
    if (!replica) return onPrimary(q);
    try {
      return await (await replica.connect()).queryRaw(q);
    } catch (e) {
      // The primary would time out as well.
      if (isStatementTimeout(e)) throw e;
      if (isDatabaseUnavailable(e) && replica.state !== 'down') {
        replica.state = 'down';
        this.o.onStateChange?.(replica.health());
      }
      // Down, or a conflict with recovery on the standby: the primary answers instead.
      return onPrimary(q);
    }
  }
}

/**
 * The driver adapter of the read client: plain reads go to a replica that is up (round
 * robin), anything else, or any read no replica can answer, to the primary's pool it is
 * built on.
 */
export class ReplicaReadsPrismaPg extends PrismaPg {
  constructor(
    primaryPool: Pool,
    private readonly replicas: ReplicaSet,
  ) {
    super(primaryPool);
  }

  override async connect(): Promise<PgAdapter> {
    const adapter = await super.connect();
    routeStatements(adapter, (q, onPrimary) => (isPlainRead(q.sql) ? this.replicas.read(q, onPrimary) : onPrimary(q)));
    return adapter;
  }
}

/**
 * The one client the services get: model reads go to `reader` when the current request's
 * read scope allows it (decided at each call, in the caller's context; services keep
 * delegates from construction time), everything else to `primary`: writes, `$transaction`
 * (so the reads inside a write transaction too), raw SQL other than `$queryRaw` reads. Two clients rather than one
 * adapter deciding per statement, because Prisma batches findUnique calls of different
 * requests into one statement: each client batches only its own role's calls.
 */
export function routeReads(primary: PrismaClient, reader: PrismaClient, replicaReadsAllowed: () => boolean): PrismaClient {
  const delegates = new Map<string, object>();
  const delegate = (model: string, onPrimary: object): object =>
    new Proxy(onPrimary, {
      get(target, method) {
        const value: unknown = Reflect.get(target, method);
        if (typeof value !== 'function' || !READ_METHODS.has(method)) return value;
        return (...args: unknown[]) => callModel(replicaReadsAllowed() ? reader : primary, model, method, args);
      },
    });
  return new Proxy(primary, {
    get(target, prop) {
      // Raw reads outside a transaction (one-statement list pages) follow the read scope
      // like model reads; the read client's adapter still sends anything but a plain SELECT
      // to the primary. A transaction's own client (tx.$queryRaw) is the primary's.
      if (prop === '$queryRaw') {
        return (...args: Parameters<PrismaClient['$queryRaw']>) => {
          const client = replicaReadsAllowed() ? reader : primary;
          return client.$queryRaw(...args);
        };
      }
      const value: unknown = Reflect.get(target, prop);
      if (typeof prop !== 'string' || prop.startsWith('$') || prop.startsWith('_') || typeof value !== 'object' || value === null)
        return value;
      let d = delegates.get(prop);
      if (!d) delegates.set(prop, (d = delegate(prop, value)));
      return d;
    },
  });
}
