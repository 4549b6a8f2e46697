// Lines of code that a runner transformed before running it (jest runs babel's output), mapped back
// to the lines of the file on disk through the inline source map the transform appended.
import { SourceMap, type SourceMapPayload } from 'node:module';
import { basename } from 'node:path';

const INLINE_MAP =
  /\/\/[#@] sourceMappingURL=data:application\/json;(?:charset=[\w-]+;)?base64,([A-Za-z0-9+/=]+)\s*(?:\}\}\)?;?)?\s*$/;

/** The source map a transform appended to the code as a data URL, or null. */
export function inlineSourceMap(code: string): SourceMap | null {
  const data = INLINE_MAP.exec(code.slice(-Math.min(code.length, 2_000_000)))?.[1];
  if (!data) return null;
  try {
    return new SourceMap(JSON.parse(Buffer.from(data, 'base64').toString('utf8')) as SourceMapPayload);
  } catch {
    return null;
  }
}

/**
 * The lines of `file` that the given lines of the transformed code came from: each line's first
 * non-blank character looked up in the map. Lines the map gives no origin in `file` are dropped.
 */
export function originalLines(code: string, lines: ReadonlySet<number>, map: SourceMap, file: string): Set<number> {
  const text = code.split('\n');
  const out = new Set<number>();
  for (const line of lines) {
    const column = text[line - 1]?.search(/\S/) ?? -1;
    if (column < 0) continue;
    const entry = map.findEntry(line - 1, column) as Partial<{
      generatedLine: number;
      originalLine: number;
      originalSource: string;
    }>;
    // An entry from an earlier line is the nearest mapping before this one, not this line's origin.
    if (entry.originalLine === undefined || entry.generatedLine !== line - 1) continue;
    if (entry.originalSource && basename(entry.originalSource) !== basename(file)) continue;
    out.add(entry.originalLine + 1);
  }
  return out;
}
