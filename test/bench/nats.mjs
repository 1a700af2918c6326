// A free port and a nats-server with JetStream of a benchmark's own (npm run bench:writes,
// bench:sync): on a free port, its store in a temporary folder removed when it stops.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/** nats-server on PATH, or NATS_SERVER. */
const natsServer = process.env.NATS_SERVER ?? (fs.existsSync('/usr/sbin/nats-server') ? '/usr/sbin/nats-server' : 'nats-server');
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** A TCP port nothing listens on, on loopback. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

/** Starts a nats-server with JetStream and waits until it listens; `stop()` ends it and removes its store. */
export async function startNats() {
  const port = await freePort();
  const store = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-nats-'));
  const child = spawn(natsServer, ['-js', '-a', '127.0.0.1', '-p', String(port), '-sd', store], { stdio: 'ignore' });
  for (let i = 0; ; i++) {
    const ok = await new Promise((r) => {
      const s = net.connect(port, '127.0.0.1');
      s.once('connect', () => (s.destroy(), r(true)));
      s.once('error', () => r(false));
    });
    if (ok) break;
    if (i > 200 || child.exitCode !== null) throw new Error('nats-server did not start');
    await sleep(50);
  }
  return {
    url: `nats://127.0.0.1:${port}`,
    pid: child.pid,
    async stop() {
      child.kill('SIGTERM');
      await new Promise((r) => (child.exitCode !== null ? r() : child.once('exit', r)));
      fs.rmSync(store, { recursive: true, force: true });
    },
  };
}
