// Source locations named by failing tests' stack traces and tracebacks (JS/TS and Python).
// Paths are matched to repository files by their longest suffix, because the tests may have run in a
// copy of the workspace, a pristine clone or a container, whose root differs from ours.
import { RUNNERS } from '../../../runners/registry.ts';

export interface Frame {
  file: string;
  line: number;
  /** 0 for the frame nearest to where the error was raised, growing outwards. */
  depth: number;
}

const PATTERNS: RegExp[] = [
  // JS: "at fn (/abs/src/a.js:12:5)", "at /abs/src/a.js:12:5", "at file:///abs/src/a.mjs:3:1"
  /\bat (?:.*? \()?(?:file:\/\/)?([^\s()]+?\.[cm]?[jt]sx?):(\d+):\d+\)?/g,
  // Python traceback: File "/abs/src/calc.py", line 4, in add
  /File "([^"]+\.py)", line (\d+)/g,
  // The runners' own frames (vitest's `❯ src/m.js:2:32`, pytest's short `src/calc.py:4: AssertionError`).
  ...RUNNERS.flatMap((r) => r.output.frames ?? []),
];

/** Frames in the order they were printed, deepest (the raise point) first per trace. */
export function parseFrames(text: string): { file: string; line: number; order: number }[] {
  const found: { file: string; line: number; order: number }[] = [];
  for (const pattern of PATTERNS) {
    for (const m of text.matchAll(pattern)) {
      if (m[1] && m[2]) found.push({ file: m[1], line: Number(m[2]), order: m.index ?? 0 });
    }
  }
  return found.sort((a, b) => a.order - b.order);
}

/** Maps a path as printed (absolute, relative, from another root) to a repository file. */
export function matchRepositoryFile(printed: string, files: readonly string[]): string | null {
  const normalized = printed.replace(/\\/g, '/').replace(/^\.\//, '');
  let best: string | null = null;
  for (const file of files) {
    if (normalized === file || normalized.endsWith(`/${file}`)) {
      if (!best || file.length > best.length) best = file;
    }
  }
  return best;
}

const EXTERNAL = /(^|\/)(node_modules|site-packages|dist-packages|\.venv|venv)\/|^node:|^internal\//;

/**
 * Frames in repository source files (not tests, not dependencies), with their depth:
 * Python prints the raise point last, JS first; depth 0 is always the raise point.
 */
export function sourceFrames(text: string, files: readonly string[], isTestFile: (path: string) => boolean): Frame[] {
  const raw = parseFrames(text).filter((f) => !EXTERNAL.test(f.file));
  const python = raw.length > 0 && raw.every((f) => f.file.endsWith('.py'));
  const ordered = python ? [...raw].reverse() : raw;
  const frames: Frame[] = [];
  let depth = 0;
  for (const f of ordered) {
    const file = matchRepositoryFile(f.file, files);
    if (!file) continue;
    if (!isTestFile(file) && !frames.some((x) => x.file === file && x.line === f.line))
      frames.push({ file, line: f.line, depth });
    depth++;
  }
  return frames;
}
