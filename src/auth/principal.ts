import { AppError } from '../errors/catalogue';

export const SCOPES = { read: 'billing.read', write: 'billing.write', audit: 'billing.audit', maintain: 'billing.maintain' } as const;
export type Scope = (typeof SCOPES)[keyof typeof SCOPES];

/** Who is calling: the token's subject (written to createdById/updatedById) and scopes. */
export interface Principal {
  readonly userId: string;
  readonly scopes: ReadonlySet<string>;
}

export function requireScope(principal: Principal | undefined, scope: Scope): Principal {
  if (!principal) throw new AppError('UNAUTHENTICATED', 'A bearer token is required');
  if (!principal.scopes.has(scope)) throw new AppError('FORBIDDEN', `The token lacks the scope ${scope}`);
  return principal;
}
