import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { ConfigError, loadConfig, originAllowed } from '../../src/config/config';

describe('configuration', () => {
  it('has the documented defaults', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({ env: 'development', port: 4000, rateLimitPerMinute: 1200, database: { url: undefined, dataDir: './data' } });
  });

  it('names every bad value', () => {
    try {
      loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x', RATE_LIMIT_PER_MINUTE: '-1', JWT_SECRET: 'short' });
      throw new Error('expected a ConfigError');
    } catch (e) {
      expect(e).toBeInstanceOf(ConfigError);
      const msg = (e as Error).message;
      for (const key of ['PORT', 'DATABASE_URL', 'RATE_LIMIT_PER_MINUTE', 'JWT_SECRET']) expect(msg).toContain(key);
    }
  });

  it('reads the scaling and database time-limit settings', () => {
    const c = loadConfig({
      DATABASE_URL: 'postgresql://h/db',
      DATABASE_REPLICA_URLS: ' postgresql://r1/db , postgresql://r2/db ',
      REDIS_URL: 'redis://127.0.0.1:6379',
      WORKERS: '3',
    });
    expect(c.database).toMatchObject({
      statementTimeoutMs: 5000,
      connectTimeoutMs: 3000,
      replicaUrls: ['postgresql://r1/db', 'postgresql://r2/db'],
      replicaMaxLagMs: 2000,
      readYourWritesMs: 5000,
    });
    expect(c.redis).toEqual({ url: 'redis://127.0.0.1:6379', keyPrefix: 'billing:' });
    expect(c.workers).toBe(3);
    expect(loadConfig({ DATABASE_URL: 'postgresql://h/db', WORKERS: 'auto' }).workers).toBeGreaterThanOrEqual(1);
    expect(loadConfig({}).database.replicaUrls).toEqual([]);
  });

  it('refuses replicas, workers or Redis settings that cannot work', () => {
    expect(() => loadConfig({ DATABASE_REPLICA_URLS: 'postgresql://r/db' })).toThrow(/DATABASE_REPLICA_URLS/);
    expect(() => loadConfig({ WORKERS: '2' })).toThrow(/WORKERS/);
    expect(() => loadConfig({ DATABASE_URL: 'postgresql://h/db', DATABASE_REPLICA_URLS: 'mysql://r/db' })).toThrow(/DATABASE_REPLICA_URLS/);
    expect(() => loadConfig({ DATABASE_URL: 'postgresql://h/db', WORKERS: '0' })).toThrow(/WORKERS/);
    expect(() => loadConfig({ REDIS_URL: 'http://x' })).toThrow(/REDIS_URL/);
    expect(() => loadConfig({ DB_STATEMENT_TIMEOUT_MS: '5' })).toThrow(/DB_STATEMENT_TIMEOUT_MS/);
  });

  it('reads the pooler and TLS settings; a transaction-mode pooler needs a direct URL', () => {
    const direct = loadConfig({ DATABASE_URL: 'postgresql://h/db' }).database;
    expect(direct).toMatchObject({ pooler: 'none', namedStatements: true, directUrl: undefined, tlsRootCertFile: undefined });
    const pooled = loadConfig({
      DATABASE_URL: 'postgresql://bouncer:6432/db',
      DATABASE_DIRECT_URL: 'postgresql://h:5432/db',
      DB_POOLER: 'transaction',
      PGSSLROOTCERT: '/etc/ca.pem',
    }).database;
    expect(pooled).toMatchObject({
      pooler: 'transaction',
      namedStatements: false,
      directUrl: 'postgresql://h:5432/db',
      tlsRootCertFile: '/etc/ca.pem',
    });
    // PgBouncer 1.21+ with max_prepared_statements keeps named statements.
    expect(
      loadConfig({
        DATABASE_URL: 'postgresql://b/db',
        DATABASE_DIRECT_URL: 'postgresql://h/db',
        DB_POOLER: 'transaction',
        DB_PREPARED_STATEMENTS: 'named',
      }).database.namedStatements,
    ).toBe(true);
    expect(loadConfig({ DATABASE_URL: 'postgresql://h/db', DB_PREPARED_STATEMENTS: 'unnamed' }).database.namedStatements).toBe(false);
    expect(() => loadConfig({ DATABASE_URL: 'postgresql://b/db', DB_POOLER: 'transaction' })).toThrow(
      /DATABASE_DIRECT_URL is required with DB_POOLER=transaction/,
    );
    expect(() => loadConfig({ DB_POOLER: 'transaction' })).toThrow(/DB_POOLER needs DATABASE_URL/);
    expect(() => loadConfig({ DATABASE_URL: 'postgresql://h/db', DB_POOLER: 'session' })).toThrow(/DB_POOLER/);
    expect(() => loadConfig({ DATABASE_URL: 'postgresql://h/db', DATABASE_DIRECT_URL: 'mysql://h/db' })).toThrow(/DATABASE_DIRECT_URL/);
  });

  it('production refuses to start without a key source or a database server', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/JWT_SECRET[\s\S]*DATABASE_URL|DATABASE_URL[\s\S]*JWT_SECRET/);
    expect(() => loadConfig({ NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(40) })).toThrow(/DATABASE_URL/);
    expect(() => loadConfig({ NODE_ENV: 'production', DATABASE_URL: 'postgresql://h/db' })).toThrow(/JWT_SECRET/);
    expect(loadConfig({ NODE_ENV: 'production', DATABASE_URL: 'postgresql://h/db', JWT_SECRET: 'x'.repeat(40) }).env).toBe('production');
  });

  it('CORS_ORIGINS: comma-separated origins or *; local origins and the hosted Apollo Sandbox by default outside production, none in production', () => {
    const prod = { NODE_ENV: 'production', DATABASE_URL: 'postgresql://h/db', JWT_SECRET: 'x'.repeat(40) };
    expect(loadConfig({ ...prod }).corsOrigins).toEqual([]);
    const local = loadConfig({}).corsOrigins;
    expect(local).not.toBe('*');
    const allows = (origin: string) => originAllowed(local, origin);
    for (const o of ['http://localhost:5173', 'http://127.0.0.1:3000', 'http://localhost', 'https://studio.apollographql.com'])
      expect(allows(o)).toBe(true);
    for (const o of [
      'https://localhost:5173',
      'http://localhost.evil.example',
      'http://127.0.0.1.evil.example:80',
      'http://studio.apollographql.com',
      'https://studio.apollographql.com.evil.example',
    ]) {
      expect(allows(o)).toBe(false);
    }
    expect(loadConfig({ ...prod, CORS_ORIGINS: ' https://Billing.Example.edu:443/ , http://localhost:5173' }).corsOrigins).toEqual([
      'https://billing.example.edu',
      'http://localhost:5173',
    ]);
    expect(loadConfig({ CORS_ORIGINS: '*' }).corsOrigins).toBe('*');
    for (const bad of [
      'billing.example.edu',
      'https://example.edu/app',
      'ftp://example.edu',
      '*,https://example.edu',
      'https://example.edu?x=1',
      'https://user:secret@example.edu',
    ]) {
      expect(() => loadConfig({ CORS_ORIGINS: bad })).toThrow(/CORS_ORIGINS/);
    }
    expect(() => loadConfig({ CORS_ORIGINS: 'https://user:secret@example.edu' })).not.toThrow(/secret/);
  });

  it('the service exits with a clear message on bad configuration', () => {
    const root = path.resolve(__dirname, '../..');
    const run = spawnSync(process.execPath, ['--import', 'tsx', path.join(root, 'src/main.ts')], {
      cwd: root,
      env: { PATH: process.env.PATH, NODE_ENV: 'production' },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('Invalid configuration');
    expect(run.stderr).toContain('JWT_SECRET');
    expect(run.stderr).not.toMatch(/at .*\.ts:\d+/); // no stack trace
  });
});
