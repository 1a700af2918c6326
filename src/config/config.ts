import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';

// Configuration is read once, from the environment (and a `.env` file), and validated here.
// Everything else receives a Config; nothing else reads process.env.

/**
 * Reads `.env` in the working directory into process.env, when there is one. A variable
 * already set in the real environment wins over the file (Node's own rule for env files).
 */
export function readEnvFile(file = path.resolve('.env')): void {
  if (fs.existsSync(file)) process.loadEnvFile(file);
}

const optionalText = z
  .string()
  .trim()
  .transform((v) => (v === '' ? undefined : v))
  .optional();

/** `http(s)://host[:port]` as browsers send it in `Origin` (lower case, no default port); undefined for anything else. */
function originOf(text: string): string | undefined {
  if (!/^https?:\/\/[^/?#@\s]+\/?$/i.test(text)) return undefined;
  try {
    return new URL(text).origin;
  } catch {
    return undefined;
  }
}

/** The hosted Apollo Sandbox: its page calls the service from this origin. */
export const HOSTED_SANDBOX_ORIGIN = 'https://studio.apollographql.com';

/**
 * The default outside production: a front-end dev server on this machine (Vite, webpack, …) on
 * any port, and the hosted Apollo Sandbox (the GraphQL explorer developers keep open).
 */
const DEVELOPMENT_ORIGINS: readonly (string | RegExp)[] = [
  /^http:\/\/localhost(:\d{1,5})?$/,
  /^http:\/\/127\.0\.0\.1(:\d{1,5})?$/,
  HOSTED_SANDBOX_ORIGIN,
];

const schema = z
  .object({
    NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
    PORT: z.coerce.number().int().min(0).max(65535).default(4000),
    HOST: z.string().default('0.0.0.0'),
    DATABASE_URL: optionalText.refine((v) => v === undefined || /^postgres(ql)?:\/\//.test(v), {
      message: 'must be a postgresql:// URL (or unset for the embedded database)',
    }),
    DATABASE_DIRECT_URL: optionalText.refine((v) => v === undefined || /^postgres(ql)?:\/\//.test(v), {
      message: 'must be a postgresql:// URL',
    }),
    DB_POOLER: z.enum(['none', 'transaction']).default('none'),
    DB_PREPARED_STATEMENTS: z.enum(['auto', 'named', 'unnamed']).default('auto'),
    PGSSLROOTCERT: optionalText,
    DATA_DIR: z.string().min(1).default('./data'),
    DB_POOL_MAX: z.coerce.number().int().min(1).max(200).default(10),
    DB_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(100).max(3_600_000).default(5000),
    DB_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(3000),
    DB_STARTUP_TIMEOUT_MS: z.coerce.number().int().min(0).max(3_600_000).default(60_000),
    DATABASE_REPLICA_URLS: optionalText
      .transform((v) =>
        v === undefined
          ? []
          : v
              .split(',')
              .map((u) => u.trim())
              .filter((u) => u !== ''),
      )
      .refine((urls) => urls.every((u) => /^postgres(ql)?:\/\//.test(u)), { message: 'must be comma-separated postgresql:// URLs' }),
    DB_REPLICA_MAX_LAG_MS: z.coerce.number().int().min(0).max(3_600_000).default(2000),
    READ_YOUR_WRITES_MS: z.coerce.number().int().min(0).max(3_600_000).default(5000),
    REDIS_URL: optionalText.refine((v) => v === undefined || /^rediss?:\/\//.test(v), { message: 'must be a redis:// or rediss:// URL' }),
    REDIS_KEY_PREFIX: z.string().min(1).max(100).default('billing:'),
    WORKERS: z
      .string()
      .trim()
      .default('1')
      .refine((v) => v === 'auto' || /^[1-9][0-9]{0,2}$/.test(v), { message: 'must be a whole number from 1, or auto (one per core)' })
      .transform((v) => (v === 'auto' ? os.availableParallelism() : Number(v))),
    RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(0).default(1200),
    JWT_SECRET: optionalText.refine((v) => v === undefined || Buffer.byteLength(v, 'utf8') >= 32, {
      message: 'must be at least 32 bytes',
    }),
    SEAL_KEY: optionalText.refine((v) => v === undefined || Buffer.byteLength(v, 'utf8') >= 32, {
      message: 'must be at least 32 bytes',
    }),
    JWT_ISSUER: optionalText,
    JWT_MAX_TTL: z.coerce.number().int().min(1).default(86_400),
    JWT_AUDIENCE: optionalText,
    JWT_JWKS_URL: optionalText.refine((v) => v === undefined || /^https?:\/\//.test(v), {
      message: 'must be an http(s) URL',
    }),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    DEMO_DATA: z.enum(['auto', 'off']).default('auto'),
    TRUST_PROXY: optionalText,
    CORS_ORIGINS: optionalText.transform((v, ctx) => {
      if (v === undefined || v === '*') return v;
      const origins: string[] = [];
      for (const item of v
        .split(',')
        .map((o) => o.trim())
        .filter(Boolean)) {
        const origin = originOf(item);
        if (origin) origins.push(origin);
        // Named in the message, without any user:password part.
        else
          ctx.addIssue({
            code: 'custom',
            message: `"${item.replace(/\/\/[^/]*@/, '//…@')}" is not an origin (scheme://host[:port], no path), nor "*"`,
          });
      }
      return origins;
    }),
    METRICS: z.enum(['on', 'off']).default('on'),
    EVENTS_NATS_URL: optionalText.refine((v) => v === undefined || /^(nats|tls):\/\/[^\s]+$/.test(v), {
      message: 'must be a nats:// (or tls://) URL',
    }),
    EVENTS_NATS_STREAM: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be a JetStream stream name (letters, digits, _ and -)')
      .default('BILLING_CHANGES'),
    EVENTS_NATS_SUBJECT_PREFIX: z
      .string()
      .regex(/^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/, 'must be NATS subject tokens separated by dots (no wildcards)')
      .default('billing.changes'),
    EVENTS_NATS_DUPLICATE_WINDOW_S: z.coerce.number().int().min(1).max(86_400).default(600),
    EVENTS_SOURCE: z.string().trim().min(1).max(500).default('urn:billing-reference-data'),
    EVENTS_POLL_MS: z.coerce.number().int().min(50).max(60_000).default(1000),
    GRAPHQL_TRUSTED_DOCUMENTS: optionalText,
    GRAPHQL_DOCUMENTS: z.enum(['any', 'trusted']).default('any'),
    EVENTS_PERSONAL_DATA: z.enum(['full', 'redacted']).default('full'),
  })
  .superRefine((env, ctx) => {
    if (!env.DATABASE_URL && env.DATABASE_REPLICA_URLS.length > 0)
      ctx.addIssue({
        code: 'custom',
        path: ['DATABASE_REPLICA_URLS'],
        message: 'needs DATABASE_URL (replicas of the embedded database do not exist)',
      });
    if (!env.DATABASE_URL && (env.DATABASE_DIRECT_URL || env.DB_POOLER !== 'none'))
      ctx.addIssue({
        code: 'custom',
        path: [env.DATABASE_DIRECT_URL ? 'DATABASE_DIRECT_URL' : 'DB_POOLER'],
        message: 'needs DATABASE_URL (the embedded database has no pooler)',
      });
    // Session-level advisory locks (migrations, ./src/db/session.ts) cannot hold across a
    // pooler that hands each transaction another server connection.
    if (env.DATABASE_URL && env.DB_POOLER === 'transaction' && !env.DATABASE_DIRECT_URL)
      ctx.addIssue({
        code: 'custom',
        path: ['DATABASE_DIRECT_URL'],
        message:
          'is required with DB_POOLER=transaction: migrations and advisory locks need a session of their own (a URL that bypasses the pooler)',
      });
    if (env.GRAPHQL_DOCUMENTS === 'trusted' && !env.GRAPHQL_TRUSTED_DOCUMENTS)
      ctx.addIssue({
        code: 'custom',
        path: ['GRAPHQL_DOCUMENTS'],
        message: 'trusted needs GRAPHQL_TRUSTED_DOCUMENTS (the manifest of the documents to accept)',
      });
    if (!env.DATABASE_URL && env.WORKERS > 1)
      ctx.addIssue({
        code: 'custom',
        path: ['WORKERS'],
        message: 'above 1 needs DATABASE_URL (the embedded database belongs to one process)',
      });
    if (env.NODE_ENV !== 'production') return;
    if (!env.JWT_SECRET && !env.JWT_JWKS_URL)
      ctx.addIssue({
        code: 'custom',
        path: ['JWT_SECRET'],
        message: 'is required when NODE_ENV=production (or set JWT_JWKS_URL); no key is generated in production',
      });
    if (!env.DATABASE_URL)
      ctx.addIssue({
        code: 'custom',
        path: ['DATABASE_URL'],
        message: 'is required when NODE_ENV=production; the embedded database is for development only',
      });
    if (env.JWT_JWKS_URL && !env.JWT_SECRET && !env.SEAL_KEY)
      ctx.addIssue({
        code: 'custom',
        path: ['SEAL_KEY'],
        message: 'is required when NODE_ENV=production with JWT_JWKS_URL: every instance keys ETags and seals cursors with it',
      });
  });

/** Browser origins allowed by CORS: `*`, or exact origins and patterns (empty: no CORS). */
export type CorsOrigins = '*' | readonly (string | RegExp)[];

/** Whether CORS lets a page on this origin call the service. */
export const originAllowed = (origins: CorsOrigins, origin: string | undefined): boolean =>
  origins === '*' || (origin !== undefined && origins.some((o) => (typeof o === 'string' ? o === origin : o.test(origin))));

export interface Config {
  readonly env: 'development' | 'test' | 'production';
  readonly port: number;
  readonly host: string;
  readonly database: {
    readonly url: string | undefined;
    /** Migrations and advisory locks: a URL that bypasses a transaction-mode pooler (default: url). */
    readonly directUrl: string | undefined;
    /** 'transaction': DATABASE_URL is a transaction-mode pooler (PgBouncer, a managed database's pooler). */
    readonly pooler: 'none' | 'transaction';
    /** Named (server-side, per connection) prepared statements; off behind a transaction-mode pooler unless asked for. */
    readonly namedStatements: boolean;
    /** CA file for connections whose URL names no sslrootcert (PGSSLROOTCERT, as libpq reads it). */
    readonly tlsRootCertFile: string | undefined;
    readonly dataDir: string;
    readonly poolMax: number;
    readonly statementTimeoutMs: number;
    readonly connectTimeoutMs: number;
    readonly startupTimeoutMs: number;
    readonly replicaUrls: readonly string[];
    readonly replicaMaxLagMs: number;
    readonly readYourWritesMs: number;
  };
  readonly rateLimitPerMinute: number;
  readonly redis: { readonly url: string | undefined; readonly keyPrefix: string };
  readonly workers: number;
  readonly auth: {
    readonly secret: string | undefined;
    readonly issuer: string | undefined;
    readonly audience: string | undefined;
    readonly jwksUrl: string | undefined;
    /** Longest accepted token lifetime, seconds. */
    readonly maxTtlSeconds: number;
  };
  /** Keys ETags and seals cursors (src/domain/common/sealing.ts); unset: derived from the HS256 secret. */
  readonly sealKey: string | undefined;
  readonly logLevel: string;
  readonly loadDemoData: boolean;
  readonly trustProxy: string | undefined;
  readonly corsOrigins: CorsOrigins;
  /** GET /metrics (Prometheus); METRICS=off turns it off. */
  readonly metrics: boolean;
  /** Change events: subscriptions always; the NATS relay with a URL (src/events). */
  readonly events: {
    readonly natsUrl: string | undefined;
    readonly stream: string;
    readonly subjectPrefix: string;
    readonly duplicateWindowSeconds: number;
    /** The CloudEvents `source` of every event. */
    readonly source: string;
    /** Longest wait for a change notification before the log is read anyway. */
    readonly pollMs: number;
    /** Events carry personal values (the broker is the operator's), unless redacted as for a reader without billing.pii. */
    readonly redactPersonalData: boolean;
  };
  /** GraphQL documents: the trusted-documents manifest and whether only its documents run (src/graphql/persisted). */
  readonly graphqlDocuments: {
    /** A path or http(s) URL, read at start. */
    readonly manifest: string | undefined;
    /** GRAPHQL_DOCUMENTS=trusted (in every mode, so that it can be rehearsed locally): any other document is refused. */
    readonly trustedOnly: boolean;
  };
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => `${i.path.join('.') || '(environment)'} ${i.message}`));
  }
  const e = parsed.data;
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    database: {
      url: e.DATABASE_URL,
      directUrl: e.DATABASE_DIRECT_URL,
      pooler: e.DB_POOLER,
      namedStatements: e.DB_PREPARED_STATEMENTS === 'auto' ? e.DB_POOLER === 'none' : e.DB_PREPARED_STATEMENTS === 'named',
      tlsRootCertFile: e.PGSSLROOTCERT,
      dataDir: e.DATA_DIR,
      poolMax: e.DB_POOL_MAX,
      statementTimeoutMs: e.DB_STATEMENT_TIMEOUT_MS,
      connectTimeoutMs: e.DB_CONNECT_TIMEOUT_MS,
      startupTimeoutMs: e.DB_STARTUP_TIMEOUT_MS,
      replicaUrls: e.DATABASE_REPLICA_URLS,
      replicaMaxLagMs: e.DB_REPLICA_MAX_LAG_MS,
      readYourWritesMs: e.READ_YOUR_WRITES_MS,
    },
    rateLimitPerMinute: e.RATE_LIMIT_PER_MINUTE,
    redis: { url: e.REDIS_URL, keyPrefix: e.REDIS_KEY_PREFIX },
    workers: e.WORKERS,
    auth: { secret: e.JWT_SECRET, issuer: e.JWT_ISSUER, audience: e.JWT_AUDIENCE, jwksUrl: e.JWT_JWKS_URL, maxTtlSeconds: e.JWT_MAX_TTL },
    sealKey: e.SEAL_KEY,
    logLevel: e.LOG_LEVEL,
    loadDemoData: e.DEMO_DATA === 'auto',
    trustProxy: e.TRUST_PROXY,
    corsOrigins: e.CORS_ORIGINS ?? (e.NODE_ENV === 'production' ? [] : DEVELOPMENT_ORIGINS),
    metrics: e.METRICS === 'on',
    events: {
      natsUrl: e.EVENTS_NATS_URL,
      stream: e.EVENTS_NATS_STREAM,
      subjectPrefix: e.EVENTS_NATS_SUBJECT_PREFIX,
      duplicateWindowSeconds: e.EVENTS_NATS_DUPLICATE_WINDOW_S,
      source: e.EVENTS_SOURCE,
      pollMs: e.EVENTS_POLL_MS,
      redactPersonalData: e.EVENTS_PERSONAL_DATA === 'redacted',
    },
    graphqlDocuments: {
      manifest: e.GRAPHQL_TRUSTED_DOCUMENTS,
      trustedOnly: e.GRAPHQL_DOCUMENTS === 'trusted',
    },
  };
}
