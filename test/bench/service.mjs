// The built service (dist/) of a benchmark: started on an embedded database in a temporary
// folder (rate limit off), waited for until /readyz answers, its CPU time read from /proc
// (all its threads, Linux only), tokens signed with its key, and stopped with its folder.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SignJWT } from 'jose';

/** The service measured: SERVICE_DIR (another build of it), default this repository. */
export const serviceDir = path.resolve(process.env.SERVICE_DIR ?? path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..'));

const secret = 'bench-secret-bench-secret-bench-secret-0123456789';

/** Starts `serviceDir`'s dist/src/main.js on `port`, with `env` over the defaults above; resolves once it is ready. */
export async function startBuiltService({ serviceDir, port, name, env = {} }) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `bench-${name}-`));
  const child = spawn(process.execPath, [path.join(serviceDir, 'dist/src/main.js')], {
    env: {
      ...process.env,
      NODE_ENV: 'development',
      DATABASE_URL: '',
      DATA_DIR: dataDir,
      PORT: String(port),
      JWT_SECRET: secret,
      RATE_LIMIT_PER_MINUTE: '0',
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  const stop = async () => {
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    const t0 = performance.now();
    for (;;) {
      try {
        if ((await fetch(`${base}/readyz`)).ok) break;
      } catch {}
      if (performance.now() - t0 > 120_000) throw new Error('the service was not ready within 120 s');
      await new Promise((r) => setTimeout(r, 50));
    }
  } catch (e) {
    await stop();
    throw e;
  }
  return {
    base,
    stop,
    /** CPU time of every thread of the service so far, in ns. */
    cpuNs: () =>
      fs.readdirSync(`/proc/${child.pid}/task`).reduce((sum, tid) => {
        try {
          return sum + Number(fs.readFileSync(`/proc/${child.pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
        } catch {
          return sum; // a thread that ended meanwhile
        }
      }, 0),
    /** A token of this service's key with these scopes, valid for an hour. */
    token: (scope) =>
      new SignJWT({ scope })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject('00000000-0000-4000-8000-000000000001')
        .setIssuedAt()
        .setExpirationTime('1h')
        .sign(new TextEncoder().encode(secret)),
  };
}
