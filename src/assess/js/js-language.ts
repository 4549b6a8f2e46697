// JavaScript and TypeScript to the assessment: the files @babel/parser reads (src/core/js-parse.ts),
// but not installed packages, a build's output or declaration files, which hold no code of the
// repository's to run. The probe's runtime is inlined into every instrumented file (probe-bundle.ts),
// so there is no runtime file to copy.
import { JS_SOURCE } from '../../core/js-tree.ts';
import type { ProbeLanguage } from '../probe-language.ts';
import { jsEntryPoints } from './entry-points.ts';
import { failingTestSpans } from './failing-tests.ts';
import { instrumentJs } from './probe.ts';

export const jsLanguage: ProbeLanguage = {
  names: ['JavaScript', 'TypeScript'],
  reads: (path) => JS_SOURCE.test(path),
  generated: (path) => /(^|\/)(node_modules|dist|build)\//.test(path) || /\.d\.[cm]?ts$/.test(path),
  instrument: async (source, changedLines, target) => instrumentJs(source, changedLines, target),
  runtimeFiles: [],
  entryPoints: jsEntryPoints,
  failingTestSpans,
};
