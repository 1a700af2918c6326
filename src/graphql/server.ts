// Placeholder until the GraphQL door lands (issue 4): answers 404 so the app composes.
import type { RequestHandler } from 'express';
import type { TokenVerifier } from '../auth/tokens';
import type { Services } from '../domain/services';
import { AppError } from '../errors/catalogue';
import type { Logger } from '../http/logger';

export interface GraphqlDeps {
  readonly services: Services;
  readonly verify: TokenVerifier;
  readonly production: boolean;
  readonly logger: Logger;
}

export async function createGraphqlHandler(_deps: GraphqlDeps): Promise<{ handler: RequestHandler; stop(): Promise<void> }> {
  return {
    handler: (_req, _res, next) => next(new AppError('NOT_FOUND', 'GraphQL is not available yet')),
    stop: async () => undefined,
  };
}
