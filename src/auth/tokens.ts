import { createRemoteJWKSet, errors as joseErrors, jwtVerify, SignJWT, type JWTPayload } from 'jose';
import { isUuid } from '../query/values';
import { AppError } from '../errors/catalogue';
import type { Principal } from './principal';

export interface VerifierOptions {
  readonly secret?: string | undefined;
  readonly jwksUrl?: string | undefined;
  readonly issuer?: string | undefined;
  readonly audience?: string | undefined;
}

export type TokenVerifier = (authorization: string | undefined) => Promise<Principal>;

const unauthenticated = (detail: string) => new AppError('UNAUTHENTICATED', detail);

/** Verifies `Authorization: Bearer <JWT>`: signature, exp, nbf, and iss/aud when configured. */
export function createTokenVerifier(o: VerifierOptions): TokenVerifier {
  const key = o.jwksUrl
    ? createRemoteJWKSet(new URL(o.jwksUrl))
    : o.secret
      ? new TextEncoder().encode(o.secret)
      : undefined;
  if (!key) throw new Error('no key source configured for token verification');
  const algorithms = o.jwksUrl ? ['RS256', 'ES256', 'PS256', 'EdDSA'] : ['HS256'];

  return async (authorization) => {
    const match = /^Bearer\s+([A-Za-z0-9_\-.=]+)\s*$/i.exec(authorization ?? '');
    if (!match?.[1]) throw unauthenticated('A bearer token is required (Authorization: Bearer <JWT>)');
    let payload: JWTPayload;
    try {
      const options = { algorithms, issuer: o.issuer, audience: o.audience, clockTolerance: 5 };
      payload =
        key instanceof Uint8Array
          ? (await jwtVerify(match[1], key, options)).payload
          : (await jwtVerify(match[1], key, options)).payload;
    } catch (e) {
      if (e instanceof joseErrors.JWTExpired) throw unauthenticated('The token has expired');
      if (e instanceof joseErrors.JWTClaimValidationFailed)
        throw unauthenticated(`The token's ${e.claim} claim is not valid`);
      throw unauthenticated('The token is not valid');
    }
    if (typeof payload.sub !== 'string' || !isUuid(payload.sub))
      throw unauthenticated('The token has no subject (sub) that is a UUID');
    const scope = (payload as { scope?: unknown }).scope;
    const scopes = new Set(typeof scope === 'string' ? scope.split(' ').filter(Boolean) : []);
    return { userId: payload.sub.toLowerCase(), scopes };
  };
}

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
