import pino, { type Logger } from 'pino';
import { stringProp } from '../lib/unknown';

// Structured JSON logs. Tokens and bodies are never logged; query strings are left out
// because OData filters can hold personal data (names, e-mail addresses).
export function createLogger(level: string): Logger {
  return pino({
    level,
    // pid tells the workers of WORKERS=N apart.
    base: { service: 'billing-reference-data', pid: process.pid },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: ['req.headers.authorization', 'headers.authorization', '*.password', '*.secret'], censor: '[redacted]' },
  });
}

export type { Logger };

/**
 * What may be logged of an unexpected error: its kind and codes, and its message cut
 * before any SQL or row values a database error carries. No stack trace: logs are
 * shipped and kept, and a stack says more about the code than an operator needs.
 */
export function describeError(e: unknown): Record<string, unknown> {
  if (!(e instanceof Error)) return { kind: typeof e };
  const message = e.message
    .split(/\b(SELECT|INSERT|UPDATE|DELETE|WITH|Key \()/)[0]!
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 300);
  const code = stringProp(e, 'code');
  const sqlState = stringProp(e.cause, 'originalCode') ?? stringProp(e.cause, 'code');
  return {
    name: e.name,
    ...(code === undefined ? {} : { code }),
    ...(sqlState === undefined ? {} : { sqlState }),
    message,
  };
}
