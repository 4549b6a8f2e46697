// The keys the configuration schema knows at a place in the file, and the one a misspelt key most
// likely meant: `maxAtempts` → `maxAttempts`, `tset` → `test`. Read from the zod schema itself, so a
// suggestion can never name a key the schema would refuse.
import type { z } from 'zod';

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

/** Edits between two words, a swap of neighbours counting as one (optimal string alignment). */
function editDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) rows[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const row = rows[i]!;
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      row[j] = Math.min(rows[i - 1]![j]! + 1, row[j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) row[j] = Math.min(row[j]!, rows[i - 2]![j - 2]! + 1);
    }
  }
  return rows[a.length]![b.length]!;
}

/** The known key closest to `key`, when it is close enough to be a slip (a third of its letters). */
export function closestKey(key: string, known: readonly string[]): string | null {
  let best: { key: string; distance: number } | null = null;
  for (const candidate of known) {
    const distance = candidate.toLowerCase() === key.toLowerCase() ? 0 : editDistance(key, candidate);
    if (!best || distance < best.distance) best = { key: candidate, distance };
  }
  return best && best.distance <= Math.max(1, Math.floor(key.length / 3)) ? best.key : null;
}
