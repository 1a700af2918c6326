import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../config/config';

// The HS256 secret: JWT_SECRET when configured (its UTF-8 bytes). Outside production a
// secret is generated on first start and kept in the data folder, so tokens made with
// `npm run token` stay valid across restarts. Production never generates one (config.ts).

export function resolveSecret(config: Config): string | undefined {
  if (config.auth.secret) return config.auth.secret;
  if (config.auth.jwksUrl || config.env === 'production') return undefined;
  const file = path.resolve(config.database.dataDir, 'jwt-secret');
  if (fs.existsSync(file)) return fs.readFileSync(file, 'utf8').trim();
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  fs.writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  return secret;
}
