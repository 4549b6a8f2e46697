// mocha, started as `mocha`, `_mocha` (old mocha prints nothing through bin/mocha on Node 24) or
// through an npm script.
import type { TestRunner } from '../runner.ts';
import { shellQuote } from '../../sandbox/shell-quote.ts';
import { namePattern } from '../test-name-pattern.ts';
import { parseMocha } from './parse-mocha.ts';
import { nodeRuntimeGuard } from '../node-guard.ts';
import { mochaTestCase } from './mocha-test-case.ts';

const STARTS = /(^|[\s;&|/])_?mocha\b/;

export const mochaRunner: TestRunner = {
  id: 'mocha',
  startedBy: (command) => STARTS.test(command),
  output: { parse: parseMocha },
  focus: {
    // mocha's positional files would replace its configured spec.
    files: () => null,
    // mocha matches --grep against each test's full title (its suites' titles, then its own).
    select: (failing) => `--grep ${shellQuote(namePattern(failing))}`,
  },
  // `0 passing` when its spec matched files without tests; mocha 12 says `Error: No test files found`
  // when it matched none (vitest's words too).
  noTestsRan: { output: /(?:^|\n)\s*0 passing\b|No test files found/ },
  configuration: {
    files: [[/(^|\/)\.mocharc(\.[a-z]+)?$/, "the test runner's configuration"]],
    packageKeys: ['mocha'],
    sections: {},
    generatedFolders: [],
    setupKeys: ['require', 'file', 'import'],
  },
  framework: { modules: /^mocha$/ },
  coverage: { kind: 'node-preload', runPerTest: false },
  guard: nodeRuntimeGuard('mocha', mochaTestCase),
  // mocha sets no variable of its own; MOCHA_* are its users' settings, read the same way.
  judged: { envVariables: /^MOCHA_/ },
};
