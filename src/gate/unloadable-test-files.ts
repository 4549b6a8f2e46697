// A test file the toolchain cannot load is the environment's failure, not the code's (docs/design.md
// §1.6, §4.5): Node before 22.18 (23.6 on the current line) has no TypeScript type stripping by
// default, so `node --test test/x.test.ts` fails every file with ERR_UNKNOWN_FILE_EXTENSION, and no
// change to the code under test can make them pass. The user's Node is what runs the tests, as it
// should be: the run ends as an error that names the cause and the Node that can load them.
import type { GateResult } from '../core/gate-result.ts';

/** Node's refusal to load a file for its extension, the extension and the file. */
const UNKNOWN_EXTENSION = /ERR_UNKNOWN_FILE_EXTENSION\]?:? Unknown file extension "(\.[cm]?tsx?)" for (\S+)/;

export interface UnloadableTestFiles {
  /** `.ts`, `.mts`, `.cts` or `.tsx`. */
  extension: string;
  /** One test file that could not be loaded, as the runner named it. */
  file: string;
}

/**
 * The TypeScript test files the baseline could not load, when no test passed and Node said it cannot
 * load their kind; null otherwise (a suite where some tests ran is judged as it is).
 */
export function unloadableTestFiles(gate: GateResult): UnloadableTestFiles | null {
  if (gate.passed || gate.report.passed > 0) return null;
  const match = UNKNOWN_EXTENSION.exec(gate.output);
  return match ? { extension: match[1] ?? '.ts', file: match[2] ?? '' } : null;
}

/** Which Node loads such files without a loader: its type stripping, on by default since these. */
export const NODE_THAT_STRIPS_TYPES = 'Node 22.18 or later (23.6 or later on the 23 line)';
