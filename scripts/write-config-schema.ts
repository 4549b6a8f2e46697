// Regenerates schema/fixloop.schema.json and the reference table of docs/configuration.md from the
// zod schema: `npm run schema`.
import { readFileSync, writeFileSync } from 'node:fs';
import { withReference } from '../src/config/config-reference.ts';
import { CONFIG_SCHEMA_PATH, configJsonSchemaText } from '../src/config/json-schema.ts';

writeFileSync(CONFIG_SCHEMA_PATH, configJsonSchemaText());
const docs = 'docs/configuration.md';
writeFileSync(docs, withReference(readFileSync(docs, 'utf8')));
console.log(`wrote ${CONFIG_SCHEMA_PATH} and ${docs}`);
