// The app over a database, in this process, for the benchmarks that count statements rather
// than time them (statements.ts, pooled-statements.ts): requests go through supertest, a
// reader's token with billing.pii comes with it.
import { signToken, createTokenVerifier } from '../../src/auth/tokens';
import { loadConfig } from '../../src/config/config';
import { createApp, type App } from '../../src/app';
import { createLogger } from '../../src/http/logger';
import type { Database } from '../../src/db/database';
import { databaseFailure } from '../../src/db/errors';
import { createServices } from '../../src/domain/services';

const SECRET = 'bench-in-process-secret-bench-in-process-0123';

export async function inProcessApp(db: Database): Promise<{ app: App; auth: { Authorization: string } }> {
  const app = await createApp({
    config: loadConfig({ NODE_ENV: 'test', JWT_SECRET: SECRET, RATE_LIMIT_PER_MINUTE: '0', DATA_DIR: '/nonexistent' }),
    services: createServices({ prisma: db.prisma, rows: db.rows }),
    verify: createTokenVerifier({ secret: SECRET }),
    logger: createLogger('silent'),
    ping: () => db.ping(),
    databases: () => db.health(),
    classifyError: databaseFailure,
    poolStats: () => db.poolStats(),
  });
  const token = await signToken(SECRET, { sub: '11111111-1111-4111-8111-111111111111', scope: 'billing.read billing.pii' });
  return { app, auth: { Authorization: `Bearer ${token}` } };
}
