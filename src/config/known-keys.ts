// The keys the configuration schema knows at a place in the file, and the one a misspelt key most
// likely meant: `maxAtempts` → `maxAttempts`, `tset` → `test`. Read from the zod schema itself, so a
// suggestion can never name a key the schema would refuse.
import type { z } from 'zod';
import { editDistance } from '../core/edit-distance.ts';

interface SchemaDef {
  type?: string;
  innerType?: z.ZodType;
  in?: z.ZodType;
  shape?: Record<string, z.ZodType>;
}

/** Looks through the wrappers (`.default()`, `.optional()`, pipes) at the object beneath. */
function objectShape(schema: z.ZodType | undefined): Record<string, z.ZodType> | null {
  let current = schema;
  for (let depth = 0; current && depth < 10; depth++) {
    const def = (current as unknown as { def: SchemaDef }).def;
    if (def.type === 'object' && def.shape) return def.shape;
    current = def.innerType ?? def.in;
  }
  return null;
}

/** The keys the schema allows in the mapping at `path` (empty when `path` is not a mapping). */
export function knownKeysAt(schema: z.ZodType, path: readonly PropertyKey[]): string[] {
  let shape = objectShape(schema);
  for (const segment of path) {
    if (!shape || typeof segment !== 'string') return [];
    shape = objectShape(shape[segment]);
  }
  return shape ? Object.keys(shape) : [];
}

/** The known key closest to `key`, when it is close enough to be a slip (a third of its letters). */
export function closestKey(key: string, known: readonly string[]): string | null {
  let best: { key: string; distance: number } | null = null;
  for (const candidate of known) {
    const distance = candidate.toLowerCase() === key.toLowerCase() ? 0 : editDistance(key, candidate, { transpositions: true });
    if (!best || distance < best.distance) best = { key: candidate, distance };
  }
  return best && best.distance <= Math.max(1, Math.floor(key.length / 3)) ? best.key : null;
}
