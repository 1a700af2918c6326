// Micro-benchmark of the $filter pipeline: parse, parse + bind, parse + bind + Prisma where.
// Run with: npx tsx test/bench/odata-parser.bench.ts
// Figures are per core and only comparable on the same machine; they show the parser is
// far from being a request's bottleneck (a database round trip is ~1 ms).
import { paymentSourceFields } from '../../src/domain/payment-source/fields';
import { bindFilter } from '../../src/rest/odata/bind';
import { parseFilter } from '../../src/rest/odata/parser';
import { toPrismaWhere } from '../support/prisma-where';

const FILTERS: ReadonlyArray<readonly [string, string]> = [
  ['simple', "code eq 'BANK'"],
  ['typical', "isActive eq true and startswith(tolower(name), 'bank') and sourceType in ('BankTransfer', 'Cash')"],
  [
    'nested',
    "(contains(code, '10%') or not (description eq null)) and (createdAt ge 2026-01-01 and createdAt lt 2026-02-01T00:00:00Z) " +
      "or (tolower(code) eq 'a_b' and accountId eq 0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d)",
  ],
  ['long in-list', `code in (${Array.from({ length: 100 }, (_, i) => `'C${i}'`).join(', ')})`],
];

function measure(run: () => void): number {
  // Warm up so the JIT has compiled the hot paths, then time for ~0.5 s.
  for (let i = 0; i < 2000; i++) run();
  let n = 0;
  const start = process.hrtime.bigint();
  let elapsed = 0n;
  while (elapsed < 500_000_000n) {
    for (let i = 0; i < 500; i++) run();
    n += 500;
    elapsed = process.hrtime.bigint() - start;
  }
  return (n * 1e9) / Number(elapsed);
}

const fmt = (x: number): string => Math.round(x).toLocaleString('en-US').padStart(12);

console.log(`node ${process.version}\n`);
console.log(
  `${'filter'.padEnd(14)} ${'chars'.padStart(5)} ${'parse/s'.padStart(12)} ${'+bind/s'.padStart(12)} ${'+prisma/s'.padStart(12)}`,
);
for (const [name, text] of FILTERS) {
  const parse = measure(() => parseFilter(text));
  const bind = measure(() => bindFilter(parseFilter(text), paymentSourceFields));
  const prisma = measure(() => toPrismaWhere(bindFilter(parseFilter(text), paymentSourceFields), paymentSourceFields));
  console.log(`${name.padEnd(14)} ${String(text.length).padStart(5)} ${fmt(parse)} ${fmt(bind)} ${fmt(prisma)}`);
}
