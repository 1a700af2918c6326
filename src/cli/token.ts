import { parseArgs } from 'node:util';
import { decodeJwt } from 'jose';
import { resolveSecret } from '../auth/keys';
import { SCOPES } from '../auth/principal';
import { signToken } from '../auth/tokens';
import { ConfigError, loadConfig, readEnvFile } from '../config/config';
import { messageOf } from '../lib/unknown';

// `npm run token` prints a development token with every scope (billing.pii included, so
// customers' names show), signed with the same secret the service uses (JWT_SECRET, or the
// one generated in the data folder); --scope makes others, e.g. one without billing.pii.
/** The user id development tokens carry unless --sub names another. */
const DEV_USER_ID = '00000000-0000-4000-8000-000000000001';
const ALL_SCOPES = Object.values(SCOPES).join(' ');
const HELP = `Usage: npm run token -- [--sub UUID] [--scope "billing.read billing.write"] (default: every scope, "${ALL_SCOPES}"; billing.audit reads the change log, billing.pii the personal fields of customers and addresses) [--expires 12h]`;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      sub: { type: 'string', default: DEV_USER_ID },
      scope: { type: 'string', default: ALL_SCOPES },
      expires: { type: 'string', default: '12h' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    process.stdout.write(`${HELP}\n`);
    return;
  }
  readEnvFile();
  const config = loadConfig();
  const secret = resolveSecret(config);
  if (!secret) throw new Error('no JWT_SECRET configured (tokens for a JWKS setup come from your identity provider)');
  const token = await signToken(secret, {
    sub: values.sub,
    scope: values.scope,
    expiresIn: values.expires,
    issuer: config.auth.issuer,
    audience: config.auth.audience,
  });
  // The service refuses tokens that live longer than JWT_MAX_TTL: say so now, not at the first request.
  const { exp, iat } = decodeJwt(token);
  if (exp !== undefined && iat !== undefined && exp - iat > config.auth.maxTtlSeconds)
    throw new Error(
      `--expires ${values.expires} is longer than JWT_MAX_TTL (${config.auth.maxTtlSeconds} seconds); the service would refuse the token`,
    );
  process.stdout.write(`${token}\n`);
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof ConfigError ? e.message : `token: ${messageOf(e)}`}\n`);
  process.exit(1);
});
