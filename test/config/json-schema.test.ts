import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CONFIG_SCHEMA_PATH, configJsonSchema, configJsonSchemaText } from '../../src/config/json-schema.ts';

describe('published JSON Schema', () => {
  it('is the one generated from the zod schema (run `npm run schema` after changing it)', () => {
    expect(readFileSync(CONFIG_SCHEMA_PATH, 'utf8')).toBe(configJsonSchemaText());
  });

  it('documents every key', () => {
    const missing: string[] = [];
    const walk = (node: Record<string, unknown>, path: string) => {
      const properties = node.properties as Record<string, Record<string, unknown>> | undefined;
      for (const [key, child] of Object.entries(properties ?? {})) {
        const here = path ? `${path}.${key}` : key;
        if (child.type === 'object' && child.properties) walk(child, here);
        else if (typeof child.description !== 'string') missing.push(here);
      }
    };
    walk(configJsonSchema(), '');
    expect(missing).toEqual([]);
  });
});

describe('docs/configuration.md', () => {
  it('holds the reference generated from the schema (run `npm run schema` after changing it)', async () => {
    const { withReference } = await import('../../src/config/config-reference.ts');
    const docs = readFileSync('docs/configuration.md', 'utf8');
    expect(withReference(docs)).toBe(docs);
  });
});
