// The JSON Schema of fixloop.yml, generated from the zod schema so the two never disagree.
import { z } from 'zod';
import { repoConfigSchema } from '../core/repo-config.ts';

export const CONFIG_SCHEMA_PATH = 'schema/fixloop.schema.json';

export function configJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(repoConfigSchema, { io: 'input', target: 'draft-2020-12' }) as Record<string, unknown>;
  return {
    ...schema,
    title: 'fixloop.yml',
    description: "fixloop's repository configuration (fixloop.yml or .github/fixloop.yml). CLI flags override it.",
  };
}

export function configJsonSchemaText(): string {
  return `${JSON.stringify(configJsonSchema(), null, 2)}\n`;
}
