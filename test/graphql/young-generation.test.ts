// A GraphQL request's objects must die young: once its response is written, nothing it made
// may survive a young-generation collection. Objects that do are copied into the old
// generation and stay there until the next full collection; under load that made every young
// collection copy megabytes (the articles page's p99 was its GC pauses). Apollo's gateway
// executor is handed a request context whose HTTP status is a getter/setter pair over the whole
// request, and V8 keeps such an object's hidden class in the old generation, which kept the
// result and our loaders alive: successful operations must not reach that executor
// (src/graphql/jit.ts). Measured with explicit collections, so the figure does not depend on
// when V8 would collect on its own, in a fresh process (young-generation.measure.ts): inside a
// Jest worker that had run other files first the health probe's own figure moved from 35 to
// 47 KB and the page's by 60 KB.

import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

it('leaves nothing of a successful query to survive a young collection', async () => {
  const script = path.join(__dirname, 'young-generation.measure.ts');
  const { stdout } = await run(process.execPath, ['--expose-gc', '--import', 'tsx', script], { env: process.env, timeout: 50_000 });
  const m = JSON.parse(stdout) as { probe: number; page: number; responseSize: number };
  const extra = m.page - m.probe;
  console.log(`old generation per request: health probe ${m.probe} bytes, GraphQL page ${m.page} bytes (responses of ${Math.round(m.responseSize)} bytes)`);
  // The probe's figure is what the client (fetch), the kept-alive connection and the
  // collections themselves leave, about 35 KB. Measured (medians): the page 18 KB more, and
  // 91 KB more while Apollo's executor kept the result and the loaders. The result alone, as
  // objects, is larger than its JSON text.
  expect(extra).toBeLessThan(m.responseSize);
});
