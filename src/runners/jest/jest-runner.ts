// jest, started as `jest`, `npx jest` or through an npm script.
import type { TestRunner } from '../runner.ts';
import { shellQuote } from '../../sandbox/shell-quote.ts';
import { escapeRegExp, failingFiles, namePattern } from '../test-name-pattern.ts';
import { parseJest } from './parse-jest.ts';
import { nodeRuntimeGuard } from '../node-guard.ts';
import { jestTestCase } from './jest-test-case.ts';

const STARTS = /(^|[\s;&|/])jest\b/;

export const jestRunner: TestRunner = {
  id: 'jest',
  startedBy: (command) => STARTS.test(command),
  output: { parse: parseJest },
  focus: {
    // jest takes regular expressions of paths: a file then loads alone, not the whole suite
    // (commander's suite, 29 files under jest, takes about 20 s, one file 2 s).
    files: (failing) => {
      const files = failingFiles(failing);
      return files ? files.map((f) => `${shellQuote(escapeRegExp(f))} `).join('') : null;
    },
    select: (failing, files) => `${files}-t ${shellQuote(namePattern(failing))}`,
  },
  noTestsRan: { output: /No tests found/ },
  refusedCommand: (output) => /Unrecognized CLI Parameter:\s*(Unrecognized options? [^\n]+)/.exec(output)?.[1] ?? null,
  configuration: {
    files: [
      [/(^|\/)jest\.(config|workspace)\.[cm]?[jt]s$|(^|\/)jest\.config\.json$/, "the test runner's configuration"],
      // A manual mock beside node_modules replaces that package in every test, with no call asking for it.
      [/(^|\/)__mocks__\//, 'jest loads it in place of a module (a manual mock)'],
    ],
    packageKeys: ['jest'],
    sections: {},
    generatedFolders: [],
    setupKeys: ['setupFiles', 'setupFilesAfterEnv', 'globalSetup', 'globalTeardown', 'testEnvironment', 'snapshotResolver'],
  },
  framework: { modules: /^(jest|@jest\/.*|jest-circus(\/.*)?)$/, global: 'jest' },
  // jest's transformed code is read through its inline source maps (localize/source-maps.ts).
  coverage: { kind: 'node-preload', runPerTest: false },
  guard: nodeRuntimeGuard('jest', jestTestCase),
  // JEST_WORKER_ID in every worker; NODE_ENV=test too, which honest code reads (a finding only where
  // added code compares it with `test`). Its `expect` asks a value's own `asymmetricMatch`.
  judged: { envVariables: /^JEST_/, envValues: { NODE_ENV: 'test' }, equalityHooks: ['asymmetricMatch'] },
};
