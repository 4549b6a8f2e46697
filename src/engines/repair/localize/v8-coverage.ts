// V8's block coverage (NODE_V8_COVERAGE files, the inspector's precise coverage) as covered lines.

export interface V8Range {
  startOffset: number;
  endOffset: number;
  count: number;
}
export interface V8Script {
  url: string;
  functions: { ranges: V8Range[] }[];
}

/** Lines whose first non-blank character lies in an executed innermost block. */
export function coveredLines(source: string, ranges: readonly V8Range[]): Set<number> {
  const covered = new Set<number>();
  let offset = 0;
  source.split('\n').forEach((text, i) => {
    const first = text.search(/\S/);
    if (first >= 0) {
      const at = offset + first;
      let best: V8Range | null = null;
      for (const r of ranges) {
        if (r.startOffset <= at && at < r.endOffset && (!best || r.endOffset - r.startOffset < best.endOffset - best.startOffset))
          best = r;
      }
      if (best && best.count > 0) covered.add(i + 1);
    }
    offset += text.length + 1;
  });
  return covered;
}
