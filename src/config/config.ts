import fs from 'node:fs';
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

const schema = z
  .object({
    NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
    PORT: z.coerce.number().int().min(0).max(65535).default(4000),
    HOST: z.string().default('0.0.0.0'),
    DATABASE_URL: optionalText.refine((v) => v === undefined || /^postgres(ql)?:\/\//.test(v), {
      message: 'must be a postgresql:// URL (or unset for the embedded database)',
    }),
    DATA_DIR: z.string().min(1).default('./data'),
    DB_POOL_MAX: z.coerce.number().int().min(1).max(200).default(10),
    RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(0).default(1200),
    JWT_SECRET: optionalText.refine((v) => v === undefined || Buffer.byteLength(v, 'utf8') >= 32, {
      message: 'must be at least 32 bytes',
    }),
    JWT_ISSUER: optionalText,
    JWT_AUDIENCE: optionalText,
    JWT_JWKS_URL: optionalText.refine((v) => v === undefined || /^https?:\/\//.test(v), {
      message: 'must be an http(s) URL',
    }),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    DEMO_DATA: z.enum(['auto', 'off']).default('auto'),
    TRUST_PROXY: optionalText,
    METRICS: z.enum(['on', 'off']).default('on'),
  })
  .superRefine((env, ctx) => {
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
  });

export interface Config {
  readonly env: 'development' | 'test' | 'production';
  readonly port: number;
  readonly host: string;
  readonly database: { readonly url: string | undefined; readonly dataDir: string; readonly poolMax: number };
  readonly rateLimitPerMinute: number;
  readonly auth: {
    readonly secret: string | undefined;
    readonly issuer: string | undefined;
    readonly audience: string | undefined;
    readonly jwksUrl: string | undefined;
  };
  readonly logLevel: string;
  readonly loadDemoData: boolean;
  readonly trustProxy: string | undefined;
  /** GET /metrics (Prometheus); METRICS=off turns it off. */
  readonly metrics: boolean;
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
    throw new ConfigError(
      parsed.error.issues.map((i) => `${i.path.join('.') || '(environment)'} ${i.message}`),
    );
  }
  const e = parsed.data;
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    database: { url: e.DATABASE_URL, dataDir: e.DATA_DIR, poolMax: e.DB_POOL_MAX },
    rateLimitPerMinute: e.RATE_LIMIT_PER_MINUTE,
    auth: { secret: e.JWT_SECRET, issuer: e.JWT_ISSUER, audience: e.JWT_AUDIENCE, jwksUrl: e.JWT_JWKS_URL },
    logLevel: e.LOG_LEVEL,
    loadDemoData: e.DEMO_DATA === 'auto',
    trustProxy: e.TRUST_PROXY,
    metrics: e.METRICS === 'on',
  };
}
