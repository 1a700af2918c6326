// Writes the REST door's OpenAPI document (the one served at /api/v1/openapi.json) to a file,
// for `npm run lint:openapi` and client generators.
// usage: tsx scripts/write-openapi.ts OUT.json
import fs from 'node:fs';
import path from 'node:path';
import { openApiDocument } from '../src/rest/openapi';

const out = process.argv[2];
if (!out) {
  process.stderr.write('usage: tsx scripts/write-openapi.ts OUT.json\n');
  process.exit(2);
}
fs.mkdirSync(path.dirname(out), { recursive: true });
fs.writeFileSync(out, `${JSON.stringify(openApiDocument(), null, 2)}\n`);
