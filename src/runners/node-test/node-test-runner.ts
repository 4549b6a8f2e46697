// node's own test runner, `node --test`.
import type { MachineReportContext, TestRunner } from '../runner.ts';
import { shellQuote } from '../../sandbox/shell-quote.ts';
import { failingFiles, namePattern } from '../test-name-pattern.ts';
import { parseNodeTest } from './parse-node-test.ts';
import { nodeRuntimeGuard } from '../node-guard.ts';
import { nodeTestTestCase } from './node-test-test-case.ts';
import { withoutCoveringArguments } from './covering-arguments.ts';
import { nodeOptionsEnd } from './options-end.ts';

const STARTS = /(^|[\s;&|/])node\b[^;&|]*\s--test\b/;
/** `node [options] --test`, not `--test-only` or `--test-name-pattern` alone. */
const NODE_TEST = /\bnode\b[^;&|]*\s--test(?![-\w])/;

export const nodeTestRunner: TestRunner = {
  id: 'node-test',
  startedBy: (command) => STARTS.test(command),
  output: { parse: parseNodeTest },
  machineReport: {
    format: 'junit',
    file: 'node-test.xml',
    witness: 'node',
    ask: (context, path) => {
      // Asked through NODE_OPTIONS, so the request reaches it through `npm test`, make or a script;
      // but only where the command or package.json's scripts run `node --test`: a Node older than
      // 18.15 refuses to start with reporter options in NODE_OPTIONS, and a project on such a Node
      // does not use node's runner. An operator's own reporter options decide node's reporters:
      // adding ours would unbalance them.
      if (!runsNodeTest(context) || /--test-reporter/.test(`${context.command} ${context.env.NODE_OPTIONS ?? ''}`)) return null;
      const options = [
        context.env.NODE_OPTIONS,
        '--test-reporter=spec --test-reporter-destination=stdout',
        `--test-reporter=junit --test-reporter-destination=${path}`,
      ];
      return { env: { NODE_OPTIONS: options.filter((p) => p !== undefined && p.trim() !== '').join(' ') } };
    },
  },
  focus: {
    files: (failing) => {
      const files = failingFiles(failing);
      return files ? files.map((f) => `${shellQuote(f)} `).join('') : null;
    },
    // The pattern before the files: node reads what follows its first file as that file's own
    // arguments, so a pattern written after it is not applied and the whole file runs.
    select: (failing, files) => `--test-name-pattern=${shellQuote(namePattern(failing))}${files ? ` ${files.trimEnd()}` : ''}`,
    // For the same reason, after node's options and before the command's own files: a command that
    // names its files (`node --test test/`) would read a pattern at its end as one more file.
    insertAt: nodeOptionsEnd,
    // A glob or folder of the command's own that holds the named files would run its other files too.
    narrow: withoutCoveringArguments,
  },
  // Its closing summary, of the spec reporter (`ℹ tests 0`) and of TAP (`# tests 0`).
  noTestsRan: { output: /(?:^|\n)\s*(?:ℹ|#) tests 0\b/ },
  refusedCommand: (output) => /^node: (bad option: .+)$/m.exec(output)?.[1] ?? null,
  configuration: { files: [], packageKeys: [], sections: {}, generatedFolders: [] },
  // `node:test`, without its scheme.
  framework: { modules: /^test$/ },
  // Where node's runner gives no per-test events (an older Node), one run per test selected through
  // its own filter.
  coverage: { kind: 'node-preload', runPerTest: true },
  guard: nodeRuntimeGuard('node-test', nodeTestTestCase),
  // Set in each test file's process (`child-v8`); bare specifiers resolve only through node_modules, already protected.
  judged: { envVariables: /^NODE_TEST_/ },
};

function runsNodeTest(context: MachineReportContext): boolean {
  return NODE_TEST.test(context.command) || NODE_TEST.test(Object.values(context.packageScripts).join('\n'));
}
