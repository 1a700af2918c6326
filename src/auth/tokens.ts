import { createSecretKey, KeyObject } from 'node:crypto';
import { createRemoteJWKSet, errors as joseErrors, jwtVerify, SignJWT, type JWTPayload } from 'jose';
import { NIL_UUID } from '../domain/common/schemas';
import { isUuid } from '../query/values';
import { AppError } from '../errors/catalogue';
import type { Principal } from './principal';

export interface VerifierOptions {
  readonly secret?: string | undefined;
  readonly jwksUrl?: string | undefined;
  readonly issuer?: string | undefined;
  readonly audience?: string | undefined;
  /** Longest accepted lifetime in seconds: `exp − iat`, or `exp − now` without `iat`. */
  readonly maxTtlSeconds?: number | undefined;
}

/** JWT_MAX_TTL's default: a day. */
export const DEFAULT_MAX_TTL_SECONDS = 86_400;

export type TokenVerifier = (authorization: string | undefined) => Promise<Principal>;

const unauthenticated = (detail: string) => new AppError('UNAUTHENTICATED', detail);

/**
 * Verifies `Authorization: Bearer <JWT>`: signature, exp, nbf, and iss/aud when configured.
 * A token must expire, within maxTtlSeconds of being issued (a stolen token is useful for a
 * bounded time), and may not speak for the nil UUID, which stands for the system (the import).
 */
export function createTokenVerifier(o: VerifierOptions): TokenVerifier {
  const key = o.jwksUrl
    ? createRemoteJWKSet(new URL(o.jwksUrl))
    : o.secret
      ? // A KeyObject made once: jose would otherwise make one from the bytes on every request.
        createSecretKey(Buffer.from(o.secret, 'utf8'))
      : undefined;
  if (!key) throw new Error('no key source configured for token verification');
  const algorithms = o.jwksUrl ? ['RS256', 'ES256', 'PS256', 'EdDSA'] : ['HS256'];
  const maxTtl = o.maxTtlSeconds ?? DEFAULT_MAX_TTL_SECONDS;

  // A token that passed is remembered until it expires, for at most a minute: a client
  // sends the same token with every request, and its signature check was about a sixth of
  // the CPU of a small GraphQL request. Only passes are kept, never failures; a key removed
  // from the JWKS stops tokens signed with it within that minute.
  const passed = new Map<string, { readonly principal: Principal; readonly until: number }>();

  const verifyToken = async (token: string): Promise<Principal> => {
    let payload: JWTPayload;
    try {
      const options = { algorithms, issuer: o.issuer, audience: o.audience, clockTolerance: 5 };
      payload = key instanceof KeyObject ? (await jwtVerify(token, key, options)).payload : (await jwtVerify(token, key, options)).payload;
    } catch (e) {
      if (e instanceof joseErrors.JWTExpired) throw unauthenticated('The token has expired');
      if (e instanceof joseErrors.JWTClaimValidationFailed) throw unauthenticated(`The token's ${e.claim} claim is not valid`);
      throw unauthenticated('The token is not valid');
    }
    if (typeof payload.exp !== 'number') throw unauthenticated('The token has no expiry (exp); tokens must expire');
    const issued = typeof payload.iat === 'number' ? payload.iat : Math.floor(Date.now() / 1000);
    if (payload.exp - issued > maxTtl) throw unauthenticated(`The token lives longer than the ${maxTtl} seconds allowed`);
    if (typeof payload.sub !== 'string' || !isUuid(payload.sub)) throw unauthenticated('The token has no subject (sub) that is a UUID');
    if (payload.sub === NIL_UUID) throw unauthenticated("The token's subject is reserved for the system");
    const scope: unknown = payload['scope'];
    const scopes = new Set(typeof scope === 'string' ? scope.split(' ').filter(Boolean) : []);
    const principal: Principal = { userId: payload.sub.toLowerCase(), scopes };
    if (passed.size >= MAX_REMEMBERED_TOKENS) passed.delete(passed.keys().next().value!);
    passed.set(token, { principal, until: Math.min(payload.exp * 1000, Date.now() + REMEMBER_MS) });
    return principal;
  };

  return async (authorization) => {
    const match = /^Bearer\s+([A-Za-z0-9_\-.=]+)\s*$/i.exec(authorization ?? '');
    if (!match?.[1]) throw unauthenticated('A bearer token is required (Authorization: Bearer <JWT>)');
    const known = passed.get(match[1]);
    if (known && Date.now() < known.until) return known.principal;
    if (known) passed.delete(match[1]);
    return verifyToken(match[1]);
  };
}

/** How long a verified token is taken on trust (never past its exp). */
const REMEMBER_MS = 60_000;
/** Verified tokens remembered at once; the oldest goes first. */
const MAX_REMEMBERED_TOKENS = 10_000;

export interface TokenClaims {
  readonly sub: string;
  readonly scope: string;
  readonly expiresIn?: string | number;
  readonly issuer?: string | undefined;
  readonly audience?: string | undefined;
  readonly notBefore?: string | number;
}

/** Signs an HS256 token (development tokens, tests). */
export async function signToken(secret: string, c: TokenClaims): Promise<string> {
  let jwt = new SignJWT({ scope: c.scope })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(c.sub)
    .setIssuedAt()
    .setExpirationTime(c.expiresIn ?? '12h');
  if (c.issuer) jwt = jwt.setIssuer(c.issuer);
  if (c.audience) jwt = jwt.setAudience(c.audience);
  if (c.notBefore !== undefined) jwt = jwt.setNotBefore(c.notBefore);
  return jwt.sign(new TextEncoder().encode(secret));
}
