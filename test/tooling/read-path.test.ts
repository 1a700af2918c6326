import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { PROJECT_ROOT } from '../../src/config/paths';

// Every read of records goes through the compiled read path (src/db/read via RowReader);
// Prisma Client is for writes, their transactions and the rule checks inside them. This
// holds the source to that: a Prisma read (`<client>.<model>.findMany(...)` and the like, or
// raw SQL through `$queryRaw`) may appear only in the files listed here, each for its reason.
// Parsed, not type-checked (a second or so): any `x.y.findMany(` counts, whatever x is.

const READS = new Set(['findMany', 'findFirst', 'findFirstOrThrow', 'findUnique', 'findUniqueOrThrow', 'count', 'aggregate', 'groupBy']);
const RAW_READS = new Set(['$queryRaw', '$queryRawUnsafe']);

/** Files (or folders, ending in /) that may read through Prisma, and why. */
const ALLOWED: Readonly<Record<string, string>> = {
  'src/domain/payment-source/service.ts': 'rule checks of its writes (unique code, one default, no payments before a delete) and row locks',
  'src/domain/payment/service.ts': "a payment's customer and its source, locked inside the write's transaction",
  '*/writes.ts': "a resource's rule checks of its writes (src/domain/<resource>/writes.ts), inside the write's transaction",
  'src/domain/maintenance/':
    "an alternate key's id (an upsert's lookup inside its transaction; a key in a URL turned into the id the read path reads); a bulk upsert's set-based statements (table-write.ts)",
  'src/domain/account/preload.ts': "the accounts a bulk upsert's records name, read once (FOR SHARE) inside its transaction",
  'src/domain/change-log/append.ts': "whether the write's own transaction appended entries before (their seq is its own, uncommitted)",
  'src/import/': "the import's checks against the database, inside its transaction",
  'src/db/replicas.ts': "routes Prisma Client's own raw reads to a replica: plumbing, no read of its own",
  'src/events/progress.ts': "the relay's own position and backlog (ChangeRelayState, the log's head): no record a door returns",
};

/** An allowance names a file, a folder (ending in /) or, starting with *, the files ending so. */
const covers = (a: string, file: string): boolean =>
  a.startsWith('*') ? file.endsWith(a.slice(1)) : a.endsWith('/') ? file.startsWith(a) : file === a;
const allowed = (file: string): boolean => Object.keys(ALLOWED).some((a) => covers(a, file));

function sources(dir: string): string[] {
  return fs.readdirSync(path.join(PROJECT_ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = `${dir}/${e.name}`;
    if (e.isDirectory()) return e.name === '__generated__' ? [] : sources(rel);
    return e.name.endsWith('.ts') ? [rel] : [];
  });
}

/** `file:line  call` for each Prisma read in a file's text. */
function prismaReads(file: string, text = fs.readFileSync(path.join(PROJECT_ROOT, file), 'utf8')): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    const callee = ts.isCallExpression(node) ? node.expression : ts.isTaggedTemplateExpression(node) ? node.tag : undefined;
    if (callee && ts.isPropertyAccessExpression(callee)) {
      const method = callee.name.text;
      // A model's delegate is itself a property (`prisma.article`, `tx.customer`); raw SQL is the client's own method.
      const delegateRead = READS.has(method) && ts.isPropertyAccessExpression(callee.expression);
      if (delegateRead || RAW_READS.has(method)) {
        const { line } = source.getLineAndCharacterOfPosition(node.getStart());
        found.push(`${file}:${line + 1}  ${callee.getText().replace(/\s+/g, '')}`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

const files = sources('src');

it('reads through Prisma Client only in the files allowed to (writes, their transactions and rule checks)', () => {
  expect(files.length).toBeGreaterThan(50);
  const outside = files.filter((f) => !allowed(f)).flatMap((f) => prismaReads(f));
  expect(outside).toEqual([]);
});

it('every allowance is still used (an allowance nothing needs is removed)', () => {
  for (const a of Object.keys(ALLOWED)) {
    const reads = files.filter((f) => covers(a, f)).flatMap((f) => prismaReads(f));
    expect([a, reads.length > 0]).toEqual([a, true]);
  }
});

it('finds the reads it looks for, and nothing else', () => {
  const text =
    'await this.prisma.article.findMany({});\nawait tx.customer.count();\nawait prisma.$queryRaw`SELECT 1`;\nitems.find((x) => x);\nmap.count();\nawait rows.read(s);\n';
  expect(prismaReads('probe.ts', text)).toEqual([
    'probe.ts:1  this.prisma.article.findMany',
    'probe.ts:2  tx.customer.count',
    'probe.ts:3  prisma.$queryRaw',
  ]);
});
