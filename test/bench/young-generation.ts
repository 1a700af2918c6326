// npm run bench:young-generation — a GraphQL request's objects must die young: once its
// response is written, nothing it made may survive a young-generation collection. Objects
// that do are copied into the old generation and stay there until the next full collection;
// under load that made every young collection copy megabytes (the articles page's p99 was
// its GC pauses). Apollo's gateway executor is handed a request context whose HTTP status is
// a getter/setter pair over the whole request, and V8 keeps such an object's hidden class in
// the old generation, which kept the result and our loaders alive: successful operations
// must not reach that executor (src/graphql/jit.ts).
//
// Measured with explicit collections in a process of its own (node --expose-gc), so the
// figure depends neither on what other code left in the heap nor on when V8 would collect
// on its own (inside a Jest worker that had run other files first, the health probe's own
// figure moved from 35 to 47 KB and the page's by 60 KB). Prints the median bytes that
// reached the old generation per health probe and per GraphQL page, and the page's response
// size. The probe's figure is what the client (fetch), the kept-alive connection and the
// collections themselves leave, about 35 KB. Measured (medians): the page 18 KB more, and
// 91 KB more while Apollo's executor kept the result and the loaders; what it guards: the
// page's extra stays below its response size (the result alone, as objects, is larger than
// its JSON text). Exits 1 when it does not.

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import v8 from 'node:v8';
import { createTestApp } from '../support/app';

type Collect = (options: { type: 'minor' | 'major'; execution: 'sync' }) => void;
function exposedGc(): Collect {
  const gc = (globalThis as { gc?: Collect }).gc;
  if (!gc) throw new Error('run with node --expose-gc');
  return gc;
}
const gc = exposedGc();
const oldSpace = (): number => v8.getHeapSpaceStatistics().find((s) => s.space_name === 'old_space')!.space_used_size;

const PAGE =
  '{ customers(first: 100) { nodes { id firstName lastName email addresses { id street city postalCode } } } articles(first: 50) { nodes { id code name prices { id amount validFrom } } } }';

async function main(): Promise<void> {
  const t = await createTestApp();
  const server = http.createServer(t.http);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const graphql = async (): Promise<number> => {
    const res = await fetch(`${base}/graphql`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.tokens.reader}`, 'content-type': 'application/json' },
      body: JSON.stringify({ query: PAGE }),
    });
    const body = await res.text();
    if (res.status !== 200 || body.includes('"errors"')) throw new Error(`unexpected answer ${res.status}: ${body.slice(0, 300)}`);
    return body.length;
  };
  const health = async (): Promise<number> => (await (await fetch(`${base}/healthz`)).text()).length;

  /** Bytes the request left in the old generation: it is answered, then two young collections. */
  const growth = async (ask: () => Promise<number>): Promise<{ bytes: number; size: number }> => {
    const before = oldSpace();
    const size = await ask();
    gc({ type: 'minor', execution: 'sync' });
    gc({ type: 'minor', execution: 'sync' });
    return { bytes: oldSpace() - before, size };
  };

  for (let i = 0; i < 20; i++) await Promise.all([health(), graphql()]); // compiled, cached, connections open
  gc({ type: 'major', execution: 'sync' });
  // Alternating, so whatever else the process does weighs on both alike.
  const ROUNDS = 40;
  const probe: number[] = [];
  const page: number[] = [];
  let size = 0;
  for (let i = 0; i < ROUNDS; i++) {
    probe.push((await growth(health)).bytes);
    const g = await growth(graphql);
    page.push(g.bytes);
    size += g.size;
  }
  const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
  const m = { probe: median(probe), page: median(page), responseSize: Math.round(size / ROUNDS) };
  await new Promise((resolve) => server.close(resolve));
  await t.close();
  const extra = m.page - m.probe;
  const kept = extra < m.responseSize;
  process.stdout.write(
    `old generation per request: health probe ${m.probe} bytes, GraphQL page ${m.page} bytes (responses of ${m.responseSize} bytes)\n` +
      `page minus probe: ${extra} bytes, ${kept ? 'below' : 'NOT below'} the response size: ${kept ? 'the request dies young' : 'something keeps the request alive'}\n`,
  );
  if (!kept) process.exitCode = 1;
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(1);
});
