import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import net from 'node:net';
import path from 'node:path';
import { Client } from 'pg';

// Private, throwaway PostgreSQL clusters for the tests that stop a database or need
// streaming replication (the shared cluster must never be stopped or reconfigured, and it
// refuses replication connections). Each cluster lives in a temp folder, runs as the
// `postgres` user on its own port, and is removed by destroy() — call it in a finally.

const BIN_CANDIDATES = ['/usr/lib/postgresql/15/bin', '/usr/lib/postgresql/16/bin', '/usr/lib/postgresql/17/bin'];

/** The folder holding initdb and pg_ctl, or undefined when this machine has none. */
export function postgresBin(): string | undefined {
  return BIN_CANDIDATES.find((d) => fs.existsSync(path.join(d, 'initdb')));
}

/** Why private clusters cannot be made on this machine, or undefined when they can. */
export function privateClusterProblem(): string | undefined {
  if (!postgresBin()) return 'no PostgreSQL server binaries (initdb, pg_ctl) on this machine';
  if (process.getuid?.() !== 0 && os.userInfo().username !== 'postgres') return 'needs root or the postgres user to run initdb';
  return undefined;
}

/** Fails loudly where private clusters cannot be made (these tests never skip silently). */
export function requirePrivateClusters(): void {
  const problem = privateClusterProblem();
  if (problem) throw new Error(`private PostgreSQL clusters cannot be started here: ${problem}`);
}

/** Runs a server binary as the postgres user (initdb refuses root). */
function asPostgres(bin: string, args: string[], opts: { allowFail?: boolean } = {}): string {
  const dir = postgresBin();
  if (!dir) throw new Error('no PostgreSQL binaries');
  const exe = path.join(dir, bin);
  const asRoot = process.getuid?.() === 0;
  const [cmd, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', exe, ...args]] : [exe, args];
  const r = spawnSync(cmd, argv, { encoding: 'utf8', timeout: 120_000 });
  if (r.status !== 0 && !opts.allowFail) throw new Error(`${bin} ${args.join(' ')} failed (${r.status}): ${r.stderr || r.stdout}`);
  return `${r.stdout}${r.stderr}`;
}

function makeDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  if (process.getuid?.() === 0) execFileSync('chown', ['postgres:postgres', dir]);
  return dir;
}

export interface PgCluster {
  readonly port: number;
  readonly dataDir: string;
  /** postgresql:// URL of database `name` (default postgres) on this cluster. */
  url(name?: string): string;
  start(): void;
  /** `fast` ends sessions and checkpoints; `immediate` is a crash (recovery on next start). */
  stop(mode?: 'fast' | 'immediate'): void;
  running(): boolean;
  /** SIGSTOP to the server and all its processes: a stalled server (frozen VM, stuck disk). */
  freeze(): void;
  /** SIGCONT: the stalled server carries on. */
  thaw(): void;
  /** What the server logged so far (its stderr, with errors such as cancelled statements). */
  serverLog(): string;
  /** Runs SQL on database `name` through a short-lived connection. */
  query<T extends Record<string, unknown>>(sql: string, params?: unknown[], name?: string): Promise<T[]>;
  destroy(): void;
}

/** The postmaster and its children. */
export function serverPids(dataDir: string): number[] {
  const pid = Number(fs.readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  const children = execFileSync('ps', ['-o', 'pid=', '--ppid', String(pid)])
    .toString()
    .trim()
    .split(/\s+/)
    .filter(Boolean)
    .map(Number);
  return [pid, ...children];
}

function cluster(dataDir: string, port: number, holder: string): PgCluster {
  const log = path.join(holder, 'server.log');
  const self: PgCluster = {
    port,
    dataDir,
    url: (name = 'postgres') => `postgresql://postgres@127.0.0.1:${port}/${name}`,
    start() {
      asPostgres('pg_ctl', ['-D', dataDir, '-l', log, '-w', '-t', '60', '-o', `-p ${port} -k ${holder}`, 'start']);
    },
    stop(mode = 'fast') {
      asPostgres('pg_ctl', ['-D', dataDir, '-m', mode, '-w', '-t', '60', 'stop'], { allowFail: true });
    },
    freeze() {
      for (const pid of serverPids(dataDir)) process.kill(pid, 'SIGSTOP');
    },
    thaw() {
      for (const pid of serverPids(dataDir)) process.kill(pid, 'SIGCONT');
    },
    serverLog: () => (fs.existsSync(log) ? fs.readFileSync(log, 'utf8') : ''),
    running() {
      return asPostgres('pg_ctl', ['-D', dataDir, 'status'], { allowFail: true }).includes('server is running');
    },
    async query<T extends Record<string, unknown>>(sql: string, params: unknown[] = [], name = 'postgres') {
      const c = new Client({ connectionString: self.url(name), connectionTimeoutMillis: 5000 });
      await c.connect();
      try {
        return (await c.query<T>(sql, params)).rows;
      } finally {
        await c.end();
      }
    },
    destroy() {
      if (fs.existsSync(path.join(dataDir, 'postmaster.pid')))
        asPostgres('pg_ctl', ['-D', dataDir, '-m', 'immediate', '-w', 'stop'], { allowFail: true });
      fs.rmSync(holder, { recursive: true, force: true });
    },
  };
  return self;
}

function started(c: PgCluster): PgCluster {
  try {
    c.start();
  } catch (e) {
    c.destroy();
    throw e;
  }
  return c;
}

export interface PrimaryOptions {
  /** More postgresql.conf lines (later lines win over the defaults below). */
  readonly settings?: readonly string[];
  /** Files to place in the data folder before the first start (e.g. a TLS key and certificate), owned by postgres, mode 0600. */
  readonly files?: Readonly<Record<string, string | Buffer>>;
}

/** A new primary: initdb, WAL for streaming replicas, trust for local connections, started. */
export function startPrimary(port: number, o: PrimaryOptions = {}): PgCluster {
  const holder = makeDir('pg-primary-');
  const dataDir = path.join(holder, 'data');
  asPostgres('initdb', ['-D', dataDir, '-U', 'postgres', '--auth=trust', '-N', '-E', 'UTF8', '--locale=C']);
  for (const [name, content] of Object.entries(o.files ?? {})) {
    const file = path.join(dataDir, name);
    fs.writeFileSync(file, content, { mode: 0o600 });
    if (process.getuid?.() === 0) execFileSync('chown', ['postgres:postgres', file]);
  }
  fs.appendFileSync(
    path.join(dataDir, 'postgresql.conf'),
    [
      "listen_addresses = '127.0.0.1'",
      'wal_level = replica',
      'max_wal_senders = 10',
      'hot_standby = on',
      'fsync = off', // a throwaway cluster; process crashes (immediate stop) still recover from the WAL
      'shared_buffers = 32MB',
      'max_connections = 60',
      // No background work in the statistics tests read (tests and benchmarks ANALYZE themselves).
      'autovacuum = off',
      ...(o.settings ?? []),
      '',
    ].join('\n'),
  );
  return started(cluster(dataDir, port, holder));
}

/**
 * A streaming replica of `primary` (pg_basebackup -R), started on its own port.
 * `applyDelayMs` holds back replay (recovery_min_apply_delay), making lag visible to tests.
 */
export function startReplica(primary: PgCluster, port: number, o: { applyDelayMs?: number } = {}): PgCluster {
  const holder = makeDir('pg-replica-');
  const dataDir = path.join(holder, 'data');
  asPostgres('pg_basebackup', [
    '-h',
    '127.0.0.1',
    '-p',
    String(primary.port),
    '-U',
    'postgres',
    '-D',
    dataDir,
    '-R',
    '-X',
    'stream',
    '-c',
    'fast',
  ]);
  if (o.applyDelayMs) fs.appendFileSync(path.join(dataDir, 'postgresql.conf'), `recovery_min_apply_delay = '${o.applyDelayMs}ms'\n`);
  return started(cluster(dataDir, port, holder));
}

/** A TCP port nobody listens on now (the kernel's pick), for a server a test starts. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Database `name` on the cluster, migrated and filled with the demo dataset (through the
 * service's own migration runner and import). `created: false` when the database exists already.
 */
export async function demoDatabase(cluster: PgCluster, name: string, { created = true } = {}): Promise<void> {
  if (created) await cluster.query(`CREATE DATABASE "${name}"`);
  const { openDatabase } = await import('../../src/db/database');
  const { importReferenceData } = await import('../../src/import/import-service');
  const { DEMO_DATA_FILE } = await import('../../src/config/paths');
  const db = await openDatabase({ url: cluster.url(name), migrate: created });
  try {
    await importReferenceData(db, DEMO_DATA_FILE);
  } finally {
    await db.close();
  }
}
