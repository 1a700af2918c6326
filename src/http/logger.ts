import pino, { type Logger } from 'pino';

// Structured JSON logs. Tokens and bodies are never logged; query strings are left out
// because OData filters can hold personal data (names, e-mail addresses).
export function createLogger(level: string): Logger {
  return pino({
    level,
    base: { service: 'billing-reference-data' },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: ['req.headers.authorization', 'headers.authorization', '*.password', '*.secret'], censor: '[redacted]' },
  });
}

export type { Logger };
