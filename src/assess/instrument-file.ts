// Which files the assessment can probe, and the probe of each language: JavaScript and TypeScript
// (js-probe.ts) and Python (py-probe.ts). A file neither can read is compared by the suite alone.
import { JS_SOURCE } from '../core/js-parse.ts';
import { instrumentJs } from './js-probe.ts';
import type { InstrumentedFile, ProbeTarget } from './probe-record.ts';
import { instrumentPython } from './py-probe.ts';

const PYTHON_SOURCE = /\.py$/;
/** Installed or generated code is never the repository's own: not probed. */
const NOT_SOURCE = /(^|\/)(node_modules|dist|build|\.venv|venv|site-packages|__pycache__)\//;

export function probeable(path: string): boolean {
  return (JS_SOURCE.test(path) || PYTHON_SOURCE.test(path)) && !NOT_SOURCE.test(path) && !/\.d\.[cm]?ts$/.test(path);
}

export function isPython(path: string): boolean {
  return PYTHON_SOURCE.test(path);
}

export async function instrumentFile(
  source: string,
  changedLines: ReadonlySet<number>,
  target: ProbeTarget,
): Promise<InstrumentedFile | null> {
  if (PYTHON_SOURCE.test(target.path)) return instrumentPython(source, changedLines, target);
  if (JS_SOURCE.test(target.path)) return instrumentJs(source, changedLines, target);
  return null;
}
