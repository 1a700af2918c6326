import { AppError } from '../errors/catalogue';
import { PERSONAL_DATA_SCOPE } from '../query/fields';

/**
 * Every scope a token may carry. `pii` is needed on top of read or write for the personal
 * fields (src/query/fields.ts `personal`); `maintain` is for the other reference data's writes.
 */
export const SCOPES = {
  read: 'billing.read',
  write: 'billing.write',
  maintain: 'billing.maintain',
  audit: 'billing.audit',
  pii: PERSONAL_DATA_SCOPE,
} as const;
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

/** Whether the caller may see, filter, sort by and write personal fields. */
export const seesPersonalData = (principal: Principal | undefined): boolean => principal?.scopes.has(SCOPES.pii) === true;
