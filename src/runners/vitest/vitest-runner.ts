// vitest, started as `vitest`, `npx vitest`, `pnpm exec vitest` or through an npm script.
import type { TestRunner } from '../runner.ts';
import { shellQuote } from '../../sandbox/shell-quote.ts';
import { failingFiles, namePattern } from '../test-name-pattern.ts';
import { parseVitest } from './parse-vitest.ts';
import { nodeRuntimeGuard } from '../node-guard.ts';
import { vitestTestCase } from './vitest-test-case.ts';
import { vitestOwnCrash } from './own-crash.ts';

const STARTS = /(^|[\s;&|/])vitest\b/;
/** A command that is one vitest invocation, nothing chained after it (options can be appended). */
const SINGLE_VITEST = /^\s*(?:(?:npx|pnpm|pnpm exec|yarn)\s+)?vitest(?:\s+run)?\b[^;&|<>`$()]*$/;

export const vitestRunner: TestRunner = {
  id: 'vitest',
  startedBy: (command) => STARTS.test(command),
  output: {
    parse: parseVitest,
    // "❯ boom src/m.js:2:32", "❯ src/m.test.js:6:26"
    frames: [/❯ (?:\S+ )?([^\s:]+?\.[cm]?[jt]sx?):(\d+):\d+/g],
  },
  machineReport: {
    format: 'junit',
    file: 'vitest.xml',
    witness: 'vitest',
    // Its options live on its command line only: it is asked when the test command is a single
    // vitest invocation, and an operator's own reporters are left alone.
    ask: (context, path) =>
      SINGLE_VITEST.test(context.command) && !/--reporter/.test(context.command)
        ? { command: `${context.command} --reporter=default --reporter=junit --outputFile.junit=${path}` }
        : null,
  },
  focus: {
    // vitest takes substrings of paths.
    files: (failing) => {
      const files = failingFiles(failing);
      return files ? files.map((f) => `${shellQuote(f)} `).join('') : null;
    },
    select: (failing, files) => `${files}-t ${shellQuote(namePattern(failing))}`,
  },
  noTestsRan: { output: /No test files found/ },
  refusedCommand: (output) => /CACError: (Unknown option `[^`]+`)/.exec(output)?.[1] ?? null,
  crashedItself: vitestOwnCrash,
  configuration: {
    // vite's own configuration is vitest's too.
    files: [[/(^|\/)(vitest|vite)\.(config|workspace)\.[cm]?[jt]s$/, "the test runner's configuration"]],
    packageKeys: ['vitest'],
    sections: {},
    generatedFolders: ['.vitest/'],
    setupKeys: ['setupFiles', 'globalSetup', 'environment'],
  },
  // `vi` is its global with --globals.
  framework: { modules: /^(vitest|@vitest\/.*)$/, global: 'vi' },
  // vitest 4 and later keep their source maps in the main process: lines are aligned by their text.
  coverage: { kind: 'node-preload', runPerTest: false },
  guard: nodeRuntimeGuard('vitest', vitestTestCase),
  // vite's `.vite` (vitest 1.4 to 3 end a run with an error when they cannot write their results
  // cache there) and `.vite-temp` (where vite bundles a `vitest.config.ts` before it loads it: vitest
  // cannot start without it); `.vitest`, where vitest before 1.4 keeps its caches (EROFS ends the run).
  nodeModulesScratch: ['.vite', '.vite-temp', '.vitest'],
  // VITEST, VITEST_POOL_ID, VITEST_WORKER_ID, VITEST_MODE, and TEST=true (NODE_ENV=test too: not a finding).
  // vite's mode is `test` (`import.meta.env.MODE`), and NODE_ENV too unless set; its `expect` asks a
  // value's own `asymmetricMatch`, as jest's does.
  judged: {
    envVariables: /^(VITEST(_\w*)?|TEST)$/,
    envValues: { NODE_ENV: 'test', MODE: 'test' },
    equalityHooks: ['asymmetricMatch'],
  },
};
