import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { until } from './until';

// A private PgBouncer (Debian package `pgbouncer`, which .ci/run installs) in front of a
// PostgreSQL server, for the tests that prove the service behind a transaction-mode pooler.
// It runs as the postgres user (PgBouncer refuses root) from a temp folder, daemonised;
// stop() ends it by the pid it wrote and removes the folder — call it in a finally.

/** Debian's; PGBOUNCER names another build (a benchmark may want a newer one than the distribution's). */
const PGBOUNCER = process.env.PGBOUNCER ?? '/usr/sbin/pgbouncer';

export interface PgBouncerOptions {
  /** The PostgreSQL server every database name is forwarded to. */
  readonly serverPort: number;
  readonly serverHost?: string;
  readonly poolMode?: 'session' | 'transaction' | 'statement';
  readonly defaultPoolSize?: number;
  /** Further `[pgbouncer]` settings, e.g. `ignore_startup_parameters`. */
  readonly settings?: Readonly<Record<string, string | number>>;
}

export interface PgBouncer {
  readonly port: number;
  /** postgresql:// URL of database `name` through the pooler. */
  url(name: string): string;
  /** Everything PgBouncer logged so far. */
  log(): string;
  /** Runs a command on PgBouncer's admin console (`SHOW POOLS`, …). */
  admin<T extends Record<string, unknown>>(command: string): Promise<T[]>;
  stop(): Promise<void>;
}

function asPostgres(args: string[]): void {
  const asRoot = process.getuid?.() === 0;
  const [cmd, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', PGBOUNCER, ...args]] : [PGBOUNCER, args];
  const r = spawnSync(cmd, argv, { encoding: 'utf8', timeout: 30_000 });
  if (r.status !== 0) throw new Error(`pgbouncer ${args.join(' ')} failed (${r.status}): ${r.stderr || r.stdout}`);
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Starts PgBouncer on `port`; resolves once it answers a query through to the server. */
export async function startPgBouncer(port: number, o: PgBouncerOptions): Promise<PgBouncer> {
  if (!fs.existsSync(PGBOUNCER)) throw new Error(`${PGBOUNCER} is missing: install the Debian package pgbouncer (.ci/run does)`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pgbouncer-'));
  const logFile = path.join(dir, 'pgbouncer.log');
  const pidFile = path.join(dir, 'pgbouncer.pid');
  const settings: Record<string, string | number> = {
    listen_addr: '127.0.0.1',
    listen_port: port,
    unix_socket_dir: '',
    auth_type: 'trust',
    auth_file: path.join(dir, 'userlist.txt'),
    admin_users: 'postgres',
    pool_mode: o.poolMode ?? 'transaction',
    default_pool_size: o.defaultPoolSize ?? 2,
    max_client_conn: 500,
    logfile: logFile,
    pidfile: pidFile,
    ...o.settings,
  };
  fs.writeFileSync(path.join(dir, 'userlist.txt'), '"postgres" ""\n');
  fs.writeFileSync(
    path.join(dir, 'pgbouncer.ini'),
    [
      '[databases]',
      `* = host=${o.serverHost ?? '127.0.0.1'} port=${o.serverPort}`,
      '[pgbouncer]',
      ...Object.entries(settings).map(([k, v]) => `${k} = ${v}`),
      '',
    ].join('\n'),
  );
  if (process.getuid?.() === 0) execFileSync('chown', ['-R', 'postgres:postgres', dir]);
  const url = (name: string) => `postgresql://postgres@127.0.0.1:${port}/${name}`;
  const log = () => (fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8') : '');
  const self: PgBouncer = {
    port,
    url,
    log,
    async admin<T extends Record<string, unknown>>(command: string) {
      const c = new Client({ connectionString: url('pgbouncer'), connectionTimeoutMillis: 5000 });
      await c.connect();
      try {
        return (await c.query<T>(command)).rows;
      } finally {
        await c.end();
      }
    },
    async stop() {
      const pid = fs.existsSync(pidFile) ? Number(fs.readFileSync(pidFile, 'utf8').trim()) : 0;
      if (pid && alive(pid)) {
        process.kill(pid, 'SIGINT');
        await until('PgBouncer to stop', () => !alive(pid), { timeoutMs: 15_000, everyMs: 50, detail: log }).catch(() =>
          process.kill(pid, 'SIGKILL'),
        );
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
  try {
    asPostgres(['-d', path.join(dir, 'pgbouncer.ini')]);
    const answers = async (): Promise<boolean> => {
      const c = new Client({ connectionString: url('postgres'), connectionTimeoutMillis: 2000 });
      c.on('error', () => undefined);
      try {
        await c.connect();
        await c.query('SELECT 1');
        return true;
      } finally {
        await c.end().catch(() => undefined);
      }
    };
    await until('PgBouncer to answer a query', answers, { timeoutMs: 15_000, everyMs: 50, detail: log });
  } catch (e) {
    await self.stop();
    throw e;
  }
  return self;
}
