// The lines a fix changes, on both sides: the buggy file's lines it removes and the fixed file's
// lines it adds, per file, read from its unified diff. A hunk that only adds has no buggy line of its
// own, so the buggy lines around the insertion stand for it (and the fixed line after a pure
// removal for the fixed side): a mutant of "the buggy lines" or "the fix" needs somewhere to start.

export interface FixLines {
  file: string;
  /** 1-based lines of the buggy file the fix removes (or that surround what it inserts). */
  buggy: number[];
  /** 1-based lines of the fixed file the fix adds (or that follow what it removes). */
  fixed: number[];
  /** A buggy line and the fixed line that replaces it, where the fix replaces lines one for one. */
  pairs: Array<[number, number]>;
}

const HUNK = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/;

export function fixLines(patch: string): FixLines[] {
  const out: FixLines[] = [];
  let current: FixLines | null = null;
  let oldLine = 0;
  let newLine = 0;
  // The run of changed lines being read: its sides tell a pure insertion or removal apart.
  let run = { removed: 0, added: 0, oldAt: 0, newAt: 0 };
  const closeRun = () => {
    if (!current || run.removed + run.added === 0) return;
    if (run.removed === 0) current.buggy.push(...[run.oldAt - 1, run.oldAt].filter((l) => l >= 1));
    if (run.added === 0) current.fixed.push(run.newAt);
    if (run.added === run.removed) for (let i = 0; i < run.added; i++) current.pairs.push([run.oldAt + i, run.newAt + i]);
    run = { removed: 0, added: 0, oldAt: 0, newAt: 0 };
  };
  for (const line of patch.split('\n')) {
    const file = /^\+\+\+ b\/(.+)$/.exec(line);
    if (file) {
      closeRun();
      current = { file: file[1] ?? '', buggy: [], fixed: [], pairs: [] };
      out.push(current);
      continue;
    }
    const hunk = HUNK.exec(line);
    if (hunk) {
      closeRun();
      oldLine = Number(hunk[1]);
      newLine = Number(hunk[2]);
      continue;
    }
    if (!current || line.startsWith('--- ') || line.startsWith('\\')) continue;
    if (line.startsWith('-') || line.startsWith('+')) {
      if (run.removed + run.added === 0) run = { removed: 0, added: 0, oldAt: oldLine, newAt: newLine };
      if (line.startsWith('-')) {
        current.buggy.push(oldLine++);
        run.removed++;
      } else {
        current.fixed.push(newLine++);
        run.added++;
      }
      continue;
    }
    if (line.startsWith(' ') || line === '') {
      closeRun();
      oldLine++;
      newLine++;
    }
  }
  closeRun();
  return out.map((f) => ({
    ...f,
    file: f.file,
    buggy: [...new Set(f.buggy)].sort((a, b) => a - b),
    fixed: [...new Set(f.fixed)].sort((a, b) => a - b),
  }));
}
