import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { TEST_SECRET } from './app';
import { until } from './until';

// The real entry point (src/main.ts) as a child process on its own port, for the tests that
// stop databases under it or run several instances.
const root = path.resolve(__dirname, '../..');

export interface RunningService {
  readonly base: string;
  readonly child: ChildProcess;
  /** Everything it logged so far. */
  output(): string;
  /** Its JSON log entries so far (pino's lines; anything else it printed left out). */
  logs(): LogEntry[];
  /** Waits until /readyz answers 200; false after timeoutMs. */
  ready(timeoutMs?: number): Promise<boolean>;
  /** SIGTERM, then the exit code. */
  stop(): Promise<number | null>;
}

export interface LogEntry {
  readonly level?: number;
  readonly msg?: string;
  readonly pid?: number;
  readonly [field: string]: unknown;
}

/**
 * Starts the service on `port` with `env`, over the tests' defaults (a known JWT secret, no
 * rate limit, NODE_ENV=test) unless `asNpmStart`: then only what `npm start` would have.
 */
export function startService(port: number, env: Record<string, string>, { asNpmStart = false } = {}): RunningService {
  const defaults = asNpmStart ? {} : { JWT_SECRET: TEST_SECRET, RATE_LIMIT_PER_MINUTE: '0', LOG_LEVEL: 'info', NODE_ENV: 'test' };
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'src/main.ts')], {
    cwd: root,
    env: { PATH: process.env.PATH, PORT: String(port), HOST: '127.0.0.1', ...defaults, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const base = `http://127.0.0.1:${port}`;
  return {
    base,
    child,
    output: () => out,
    logs: () =>
      out
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as LogEntry),
    async ready(timeoutMs = 60_000) {
      const state = async () => (child.exitCode !== null ? 'exited' : (await fetch(`${base}/readyz`)).ok && 'ready');
      return until('the service to be ready or exit', state, { timeoutMs }).then(
        (s) => s === 'ready',
        () => false,
      );
    },
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}
