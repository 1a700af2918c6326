import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { freePort } from './pg-cluster';
import { until } from './until';

// A NATS server with JetStream of the test's own (`nats-server -js` on a free port, its store
// in a temporary folder), which the test may stop and start again; the machine's shared one
// on 4222 is never touched. The store survives a restart, as a real broker's would.

export const NATS_SERVER = process.env.NATS_SERVER ?? (fs.existsSync('/usr/sbin/nats-server') ? '/usr/sbin/nats-server' : 'nats-server');

export interface PrivateNats {
  readonly url: string;
  /** Starts the server (again) on the same port and store, and waits until it accepts connections. */
  start(): Promise<void>;
  /** SIGTERM, and waits for the process to end. */
  stop(): Promise<void>;
  /** Stops it and removes its store. */
  destroy(): Promise<void>;
}

function accepting(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect(port, '127.0.0.1');
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });
}

export async function privateNats(): Promise<PrivateNats> {
  const port = await freePort();
  const store = fs.mkdtempSync(path.join(os.tmpdir(), 'nats-test-'));
  let child: ChildProcess | undefined;
  const nats: PrivateNats = {
    url: `nats://127.0.0.1:${port}`,
    async start() {
      child = spawn(NATS_SERVER, ['-js', '-a', '127.0.0.1', '-p', String(port), '-sd', store], { stdio: 'ignore' });
      const c = child;
      const exited = await until(
        `nats-server to accept connections on port ${port}`,
        async () => (c.exitCode !== null ? 'exited' : await accepting(port)),
        { timeoutMs: 20_000, everyMs: 50 },
      );
      if (exited === 'exited') throw new Error(`nats-server exited (${c.exitCode}) before accepting connections on port ${port}`);
    },
    async stop() {
      const c = child;
      child = undefined;
      if (!c || c.exitCode !== null) return;
      const exited = new Promise((r) => c.once('exit', r));
      c.kill('SIGTERM');
      await exited;
    },
    async destroy() {
      await nats.stop();
      fs.rmSync(store, { recursive: true, force: true });
    },
  };
  await nats.start();
  return nats;
}

/** A message of the stream: its subject, Nats-Msg-Id and JSON body. */
export interface StoredEvent {
  readonly subject: string;
  readonly msgId: string | undefined;
  readonly event: {
    specversion: string;
    id: string;
    source: string;
    type: string;
    subject: string;
    time: string;
    datacontenttype: string;
    data: {
      id: string;
      seq: string;
      resource: string;
      recordId: string;
      operation: string;
      changes: Record<string, { old: unknown; new: unknown }>;
    };
  };
}

/** Every message the stream holds, in stream order. */
export async function readStream(url: string, stream: string): Promise<StoredEvent[]> {
  const nc = await connect({ servers: url });
  try {
    const jsm = await jetstreamManager(nc);
    const info = await jsm.streams.info(stream);
    const out: StoredEvent[] = [];
    for (let seq = info.state.first_seq; seq <= info.state.last_seq && info.state.messages > 0; seq++) {
      const m = await jsm.streams.getMessage(stream, { seq });
      if (!m) continue;
      out.push({ subject: m.subject, msgId: m.header?.get('Nats-Msg-Id'), event: m.json() });
    }
    return out;
  } finally {
    await nc.close();
  }
}
