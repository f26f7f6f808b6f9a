/** Writes the generated OpenAPI document to a file (for linting and for clients): write-openapi.ts OUT.json */
import { writeFileSync } from 'node:fs';
import { buildOpenApiDocument } from '#shared/api/openapi.ts';

const out = process.argv[2];
if (!out) {
  console.error('Usage: tsx infra/bin/write-openapi.ts OUT.json');
  process.exit(2);
}
writeFileSync(out, `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`);
