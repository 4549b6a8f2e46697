// JavaScript and TypeScript to the assessment: the files @babel/parser reads (src/core/js-parse.ts),
// but not installed packages, a build's output or declaration files, which hold no code of the
// repository's to run. The probe's runtime is inlined into every instrumented file (probe-bundle.ts),
// so there is no runtime file to copy; the look from outside the runner runs a script of its own.
import { fileURLToPath } from 'node:url';
import { JS_SOURCE } from '../../core/js-tree.ts';
import type { ProbeLanguage } from '../probe-language.ts';
import { jsEntryPoints } from './entry-points.ts';
import { failingTestSpans } from './failing-tests.ts';
import { instrumentJs } from './probe.ts';
import { shellQuote } from '../../sandbox/shell-quote.ts';
import { npmPacked } from './npm-packed.ts';
import { npmInstalledAt } from './npm-installed.ts';

/** The script and the parts of the probe it loads (outside-call.cjs). */
const OUTSIDE_FILES = [
  'outside-call.cjs',
  'outside-hooks.mjs',
  'outside-internal.cjs',
  'outside-loader.cjs',
  'outside-revive.cjs',
  'probe-canon.cjs',
  'probe-replay.cjs',
  'probe-text.cjs',
].map((name) => ({
  from: fileURLToPath(new URL(`./${name}`, import.meta.url)),
  name,
}));

export const jsLanguage: ProbeLanguage = {
  names: ['JavaScript', 'TypeScript'],
  reads: (path) => JS_SOURCE.test(path),
  generated: (path) => /(^|\/)(node_modules|dist|build)\//.test(path) || /\.d\.[cm]?ts$/.test(path),
  instrument: async (source, changedLines, target) => instrumentJs(source, changedLines, target),
  runtimeFiles: [],
  outside: {
    files: OUTSIDE_FILES,
    command: ({ folder, calls, results }) =>
      ['node', `${folder}/outside-call.cjs`, `${folder}/${calls}`, `${folder}/${results}`].map(shellQuote).join(' '),
    shipped: npmPacked,
    // Node's convention for a deployed program, which libraries read to drop development checks;
    // jest and vitest set NODE_ENV=test, so a fix that reads it can be on for the tests only.
    deployedSettings: { NODE_ENV: 'production' },
    // A published package is called where npm installs it, as its users' programs reach it.
    installedAt: npmInstalledAt,
  },
  entryPoints: jsEntryPoints,
  failingTestSpans,
};
