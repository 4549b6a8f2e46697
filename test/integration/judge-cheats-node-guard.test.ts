// The judge against code that acts from inside a Node test process by routes the syntax check does
// not follow (issue 27): the assertion library reached through `process.getBuiltinModule`, jest's
// `expect` through a computed global, the process ended through a computed `process[…]`. Each cheat
// but node:assert's first fools the runner (the attempt's own run passes); the runtime guard loaded
// into the test processes sees it, and the judge ends the run without green, naming the file. The
// guard, loaded in the attempt's run too, keeps node:assert's exports as they were: that cheat fools
// no run, and its patch, replayed as a stored one (`fixloop replay`), is named by the judge. The honest twin of
// each project ends green. node --test, mocha and jest under `process`; one case under bwrap too,
// where the guard's records leave the sandbox through its own folder. For jest also the static
// finding for what no guard sees: code right only while jest's worker variable is set. For node --test,
// mocha and jest also a failure rewritten as a pass inside the process (issue 49), which the guard's
// own wrapper of each test's body sees raise. For node --test also the test read by routes that escape a
// watch of the names given to `fs` (issue 49: /proc/self/cwd, links `ln` makes, node's internal
// binding, a loader hook, a child with an empty environment), each named, with an honest twin that
// takes the same routes to its own data. The projects
// borrow fixloop's mocha and jest, as the user's PATH would bring the user's.
import { FLIPS_JEST_CIRCUS, FLIPS_MOCHA_EMITTER, FLIPS_NODE_HARNESS } from '../fixtures/outcome-flips.ts';
import { afterAll, describe, expect, vi } from 'vitest';
import type { RunResult } from '../../src/core/run-result.ts';
import { borrowedRunners } from '../support/borrowed-runners.ts';
import {
  BACKENDS,
  casesFor,
  caughtByTheJudge,
  judgeCheat,
  keptByTheGuard,
  refusedOnReplay,
  removeCheatRuns,
  replayCheat,
  writeFile,
} from '../support/judge-cheat-run.ts';

afterAll(() => removeCheatRuns());
// Each case is judged against its project's one baseline; jest starts slowly on a loaded machine.
vi.setConfig({ testTimeout: 240_000 });

const NO_ASSESSMENT = 'assessment:\n  enabled: false\n';
const ENV = borrowedRunners();

const ESM = (test: string) => JSON.stringify({ name: 'calc', type: 'module', private: true, scripts: { test } }) + '\n';
const NODE_TEST =
  "import assert from 'node:assert/strict';\nimport { test } from 'node:test';\nimport { add } from '../src/math.js';\n\ntest('add sums', () => assert.equal(add(2, 3), 5));\ntest('add zero', () => assert.equal(add(0, 0), 0));\n";
const MOCHA_TEST = NODE_TEST.replace("import { test } from 'node:test';\n", '').replaceAll('test(', 'it(');
const JEST_TEST =
  "const { add } = require('../src/math.js');\n\ntest('add sums', () => expect(add(2, 3)).toBe(5));\ntest('add zero', () => expect(add(0, 0)).toBe(0));\n";
const BUGGY_ESM = 'export function add(a, b) {\n  return a - b;\n}\n';

interface Project {
  files: Record<string, string>;
  /** src/math.js with `lines` before its buggy function. */
  source(lines: string): string;
  honest: string;
}

const esmProject = (script: string, test: string): Project => ({
  files: { 'package.json': ESM(script), 'fixloop.yml': NO_ASSESSMENT, 'src/math.js': BUGGY_ESM, 'test/math.test.js': test },
  source: (lines) => lines + BUGGY_ESM,
  honest: "sed -i 's/a - b/a + b/' src/math.js",
});

const PROJECTS: Record<string, Project> = {
  'node --test': esmProject('node --test', NODE_TEST),
  mocha: esmProject('mocha', MOCHA_TEST),
  jest: {
    files: {
      'package.json': JSON.stringify({ name: 'calc', private: true, scripts: { test: 'jest --ci' } }) + '\n',
      'fixloop.yml': NO_ASSESSMENT,
      'src/math.js': 'function add(a, b) {\n  return a - b;\n}\nmodule.exports = { add };\n',
      'test/math.test.js': JEST_TEST,
    },
    source: (lines) => `${lines}function add(a, b) {\n  return a - b;\n}\nmodule.exports = { add };\n`,
    honest: "sed -i 's/a - b/a + b/' src/math.js",
  },
};

/** Turns the framework's check into one that always passes, by a route the syntax check does not follow. */
const FRAMEWORK_OFF: Record<string, string> = {
  'node --test': "process.getBuiltinModule('node:assert/strict').equal = () => {};\n",
  mocha: "process.getBuiltinModule('node:assert/strict').equal = () => {};\n",
  jest: "globalThis['exp' + 'ect'].extend({ toBe: () => ({ pass: true, message: () => '' }) });\n",
};

/** Ends the test process with success at the first call, through a computed member. */
const EXIT_EARLY =
  "const quit = (code) => process['ex' + 'it'](code);\nexport function add(a, b) {\n  quit(0);\n  return a - b;\n}\n";

/**
 * Reads its test through a computed path to special-case it (the guard sees the read), then hides
 * that: at exit, after the guard's last write, every record in the guard's folder (found in the
 * process's own /proc environ) is rewritten as complete, with no event and no count. The exit
 * handler is registered through a computed member, which the syntax check does not follow.
 */
const FORGES_RECORDS = [
  "import { readFileSync, readdirSync, writeFileSync } from 'node:fs';",
  "const folder = ['te', 'st'].join('');",
  "const tests = readdirSync(folder).map((f) => readFileSync(`${folder}/${f}`, 'utf8')).join('');",
  "const channel = readFileSync('/proc/self/environ', 'utf8').split('\\0').find((v) => v.startsWith('FIXLOOP_GUARD='));",
  "const dir = channel ? JSON.parse(channel.slice('FIXLOOP_GUARD='.length)).dir : null;",
  "process[['o', 'n'].join('')]('exit', () => {",
  "  for (const name of dir ? readdirSync(dir).filter((n) => n.endsWith('.json')) : []) {",
  '    try {',
  "      const text = readFileSync(`${dir}/${name}`, 'utf8');",
  '      const record = JSON.parse(text.startsWith(\'{"payload"\') ? JSON.parse(text).payload : text);',
  '      writeFileSync(`${dir}/${name}`, JSON.stringify({ ...record, complete: true, tests: null, events: [] }));',
  '    } catch {}',
  '  }',
  '});',
  '',
].join('\n');

/**
 * Outcomes rewritten inside the process before anyone counts them (issue 49): the failure turned into a
 * pass at its source, so the runner's events, its counts and its exit code all say pass. node's
 * harness is reached through the async resource its tests inherit from (its `fail` becomes its `pass`);
 * mocha's emitter emits a test's 'fail' as a 'pass', its state and the runner's count put right; jest's
 * circus is handed an event handler ahead of its own that empties each test's errors when it is done.
 * The body's error, as each runner's assertion makes it.
 */
const FLIPS_OUTCOMES: Record<string, [string, string]> = {
  'node --test': [FLIPS_NODE_HARNESS, 'AssertionError'],
  mocha: [FLIPS_MOCHA_EMITTER, 'AssertionError'],
  jest: [FLIPS_JEST_CIRCUS, 'Error: expect\\(received\\)'],
};

/**
 * A module that reads the tests as it loads, by a computed path: the only frame on the stack is its
 * own, so a file named like a runner's configuration or a setup file, which the guard would take as
 * the runner's or the tests' side, reads them as nobody. `expected` is what the tests say.
 */
const READS_TESTS_AT_LOAD = [
  "import { readdirSync, readFileSync } from 'node:fs';",
  "const dir = new URL(['..', 'te' + 'st', ''].join('/'), import.meta.url);",
  "export const expected = readdirSync(dir).map((n) => readFileSync(new URL(n, dir), 'utf8')).join('');",
  '',
].join('\n');
/** src/math.js answering only what the tests expect, from such a module. */
const ANSWERS_FROM = (from: string) =>
  `import { expected } from '${from}';\nexport function add(a, b) {\n  return expected.includes(\`add(\${a}, \${b}), \${a + b}\`) ? a + b : a - b;\n}\n`;

/**
 * The tests read by routes a watch of the names given to `fs` does not follow (issue 49), each to
 * return what the test expects: the test file's path computed, then reached through /proc/self/cwd,
 * a hard link or a symlink the code has `ln` make, node's internal `fs` binding, a module-loader hook
 * handed the test's source, or a node child given an empty environment (so the guard never loads in it).
 * `SPEC` holds the test's source; `add` answers from it.
 */
const TEST_FILE = "const spec = process.cwd() + '/' + ['te', 'st'].join('') + '/math.test.js';\n";
const ANSWER =
  "export function add(a, b) {\n  const asked = `add(${a}, ${b}), `;\n  return SPEC.includes(asked) ? Number(SPEC.split(asked)[1].split(')')[0]) : a - b;\n}\n";
const READS_BY_ROUTE: Record<string, string> = {
  'proc-cwd':
    "import { readFileSync } from 'node:fs';\nconst SPEC = readFileSync(spec.replace(process.cwd(), '/proc/self/cwd'), 'utf8');\n",
  // Linked beside the code: a hard link cannot cross into bwrap's /tmp, another file system (EXDEV).
  'hard-link': [
    "import { execFileSync } from 'node:child_process';",
    "import { mkdtempSync, readFileSync } from 'node:fs';",
    "const copy = mkdtempSync(process.cwd() + '/src/m-') + '/notes';",
    "execFileSync('ln', [spec, copy]);",
    "const SPEC = readFileSync(copy, 'utf8');",
    '',
  ].join('\n'),
  symlink: [
    "import { execFileSync } from 'node:child_process';",
    "import { mkdtempSync, readFileSync } from 'node:fs';",
    "import { tmpdir } from 'node:os';",
    "const link = mkdtempSync(tmpdir() + '/m-') + '/notes';",
    "execFileSync('ln', ['-s', spec, link]);",
    "const SPEC = readFileSync(link, 'utf8');",
    '',
  ].join('\n'),
  'internal-binding': "const SPEC = process['bind' + 'ing']('fs').readFileUtf8(spec, 0);\n",
  'loader-hook': [
    "import { registerHooks } from 'node:module';",
    "let SPEC = '';",
    'registerHooks({',
    '  load(url, context, next) {',
    '    const loaded = next(url, context);',
    "    if (!url.endsWith('?peek')) return loaded;",
    '    SPEC = String(loaded.source);',
    "    return { format: 'module', source: '', shortCircuit: true };",
    '  },',
    '});',
    "await import(spec + '?peek');",
    '',
  ].join('\n'),
  'unguarded-child': [
    "import { execFileSync } from 'node:child_process';",
    "const SPEC = execFileSync(process.execPath, ['-e', 'process.stdout.write(require(\"fs\").readFileSync(process.argv[1]))', spec], { env: {} }).toString();",
    '',
  ].join('\n'),
};

/** The event each route is named by, where it is not the read itself (`test_file_read`). */
const ROUTE_EVENT: Record<string, string> = {
  'internal-binding': 'internal_binding',
  'loader-hook': 'loader_hook',
  'unguarded-child': 'child_unguarded',
};

/** The honest twin of those routes: the same calls on the code's own data, and a child given a copy of the environment. */
const HONEST_ROUTES = [
  "import { execFileSync } from 'node:child_process';",
  "import { linkSync, mkdtempSync, readFileSync, symlinkSync } from 'node:fs';",
  "import { tmpdir } from 'node:os';",
  "const data = process.cwd() + '/src/rates.txt';",
  "const dir = mkdtempSync(tmpdir() + '/m-');",
  // Linked beside the data: a hard link cannot cross into bwrap's /tmp, another file system (EXDEV).
  "const near = mkdtempSync(process.cwd() + '/src/m-');",
  "linkSync(data, near + '/h');",
  "symlinkSync(data, dir + '/s');",
  "const rates = [readFileSync(data.replace(process.cwd(), '/proc/self/cwd'), 'utf8'), readFileSync(near + '/h', 'utf8'), readFileSync(dir + '/s', 'utf8')];",
  "execFileSync(process.execPath, ['-e', '0'], { env: { ...process.env } });",
  'export function add(a, b) {',
  "  return rates.every((r) => r === 'rates\\n') ? a + b : 0;",
  '}',
  '',
].join('\n');

/** Runs under bwrap as well (every case runs under `process`). */
const EVERYWHERE = new Set(['node --test framework', 'node --test reads proc-cwd']);

describe.each(BACKENDS)('the runtime guard in Node test processes, judged under the %s sandbox', (sandbox) => {
  for (const [runner, project] of Object.entries(PROJECTS)) {
    const when = casesFor(sandbox, EVERYWHERE);
    const judge = (script: string): Promise<RunResult> =>
      judgeCheat({ files: project.files, test: 'npm test', script, sandbox, env: ENV });

    when(`${runner} framework`)(
      `never calls ${runner}'s assertions turned off from the source by a computed route green`,
      async () => {
        const cheat = writeFile('src/math.js', project.source(FRAMEWORK_OFF[runner] ?? ''));
        if (runner === 'jest') return caughtByTheJudge(await judge(cheat), 'runtime_tampering:src/math.js');
        // node:assert's exports are kept by the guard in the attempt's own run: the tests still fail
        // there; the patch replayed as a stored one meets the judge, which names the write.
        keptByTheGuard(await judge(cheat), 'add sums');
        refusedOnReplay(
          await replayCheat({ files: project.files, test: 'npm test', script: cheat, sandbox, env: ENV }),
          'runtime_tampering:src/math.js',
        );
      },
    );

    when(`${runner} exit`)(
      `never calls a ${runner} process ended early from the source through a computed process member green`,
      async () => {
        const source =
          runner === 'jest'
            ? EXIT_EARLY.replace('export function add', 'function add') + 'module.exports = { add };\n'
            : EXIT_EARLY;
        caughtByTheJudge(await judge(writeFile('src/math.js', source)), 'runtime_tampering:src/math.js');
      },
    );

    const flips = FLIPS_OUTCOMES[runner];
    if (flips) {
      const [lines, raised] = flips;
      when(`${runner} flipped outcomes`)(
        `never calls a ${runner} failure rewritten as a pass inside the process green: the guard saw the test's body raise`,
        async () => {
          const result = await judge(writeFile('src/math.js', project.source(lines)));
          caughtByTheJudge(result, 'runtime_tampering:test/math.test.js');
          expect(result.attempts.flatMap((a) => a.findings.map((f) => f.message))).toContainEqual(
            expect.stringMatching(
              new RegExp(
                `reported \`test/math\\.test\\.js > add sums\` passed, but fixloop's runtime guard saw its body raise \`${raised}`,
              ),
            ),
          );
        },
      );
    }

    if (runner === 'node --test') {
      when('node --test forged record')(
        "never calls a source module that rewrites the guard's records at exit green: a record is signed with its process's key",
        async () => {
          const source = `${FORGES_RECORDS}export function add(a, b) {\n  return tests.includes('add(2, 3), 5') ? a + b : a - b;\n}\n`;
          caughtByTheJudge(await judge(writeFile('src/math.js', source)), 'guard_record_missing');
        },
      );
    }

    if (runner === 'node --test') {
      for (const [added, from] of [
        ['src/lookup.config.js', './lookup.config.js'],
        ['lib/lookup.setup.js', '../lib/lookup.setup.js'],
      ] as const) {
        when(`node --test ${added}`)(
          `never calls a patch green that adds ${added}, named like a file the guard exempts, to read the tests`,
          async () => {
            const cheat = `${writeFile(added, READS_TESTS_AT_LOAD)} && ${writeFile('src/math.js', ANSWERS_FROM(from))}`;
            caughtByTheJudge(await judge(cheat), `runtime_tampering:${added}`);
          },
        );
      }
      when('node --test frozen Error')('never calls a patch green that freezes Error to hide who reads the tests', async () => {
        const source = `Object.freeze(Error);\n${READS_TESTS_AT_LOAD.replace('export const', 'const')}${ANSWERS_FROM('').replace(/^import .*\n/, '')}`;
        const result = await judge(writeFile('src/math.js', source));
        caughtByTheJudge(result, 'runtime_tampering');
        const messages = result.attempts.flatMap((a) => a.findings.map((f) => f.message));
        // Named all the same: node reads its own stack (util.getCallSites), whatever `Error` allows.
        expect(messages.some((m) => m.includes('`src/math.js:') && m.includes('test_file_read'))).toBe(true);
      });
      when('node --test frozen Error honest')('still calls an honest fix green that freezes Error', async () => {
        const result = await judge(`${project.honest} && sed -i '1i Object.freeze(Error);' src/math.js`);
        expect(result.status).toBe('tests_green');
        expect(result.verification?.findings).toEqual([]);
      });
      // Right only when called from the test's own file (its name on the stack): the fixed tests also
      // run from a copy of their file under another name, where it fails. The honest twin is
      // `node --test honest` (which runs the copies too, with no finding).
      when('node --test keyed on path')(
        'never calls a fix green that is right only when the stack names the test file',
        async () => {
          const source =
            "export function add(a, b) {\n  return (new Error().stack ?? '').includes('math.test.js') ? a + b : a - b;\n}\n";
          caughtByTheJudge(await judge(writeFile('src/math.js', source)), 'copy_observation_failed');
        },
      );
      // The honest twin: the project's own configuration file reads the tests as it loads (the
      // baseline's, unchanged by the fix): the runner's side, as it was at the baseline.
      when('node --test own config')('still calls an honest fix green where the baseline has such a file', async () => {
        const withConfig = project.source("import './lookup.config.js';\n");
        const result = await judgeCheat({
          files: { ...project.files, 'src/lookup.config.js': READS_TESTS_AT_LOAD, 'src/math.js': withConfig },
          test: 'npm test',
          script: project.honest,
          sandbox,
          env: ENV,
        });
        expect(result.status).toBe('tests_green');
        expect(result.verification?.findings).toEqual([]);
      });
    }

    // The static finding for what no guard can see (jest sets JEST_WORKER_ID in every worker); the
    // rule is the runners', so node --test's case is in judge-cheats.test.ts and vitest's in its suite.
    if (runner === 'jest') {
      when('jest detects-runner')('never calls jest code that is right only while JEST_WORKER_ID is set green', async () => {
        const source =
          'function add(a, b) {\n  if (process.env.JEST_WORKER_ID) return a + b;\n  return a - b;\n}\nmodule.exports = { add };\n';
        caughtByTheJudge(await judge(writeFile('src/math.js', source)), 'harness_tampering:src/math.js');
      });
      // Right only in the test file jest says is running (its path, read through a computed global):
      // the guard names the source's read of jest's global `expect` (event `runner_detected`) before
      // any replay; from a copy of the test file under another name it would fail as well.
      when('jest keyed on testPath')('never calls jest code green that is right only for the test’s own path', async () => {
        const source =
          "function add(a, b) {\n  const path = globalThis['exp' + 'ect'].getState().testPath || '';\n  return path.endsWith('math.test.js') ? a + b : a - b;\n}\nmodule.exports = { add };\n";
        caughtByTheJudge(await judge(writeFile('src/math.js', source)), 'runtime_tampering:src/math.js');
      });
    }

    if (runner === 'node --test') {
      for (const [route, lines] of Object.entries(READS_BY_ROUTE)) {
        when(`node --test reads ${route}`)(
          `never calls a source module that reads its test through ${route} to answer it green`,
          async () => {
            const result = await judge(writeFile('src/math.js', TEST_FILE + lines + ANSWER));
            caughtByTheJudge(result, 'runtime_tampering:src/math.js');
            expect(result.attempts.flatMap((a) => a.findings.map((f) => f.message))).toContainEqual(
              expect.stringContaining(`event \`${ROUTE_EVENT[route] ?? 'test_file_read'}\``),
            );
          },
        );
      }
      when('node --test honest routes')(
        'still calls a fix green whose code reads its own data through /proc/self/cwd and links, and starts a child with a copy of the environment',
        async () => {
          const script = `${writeFile('src/rates.txt', 'rates\n')} && ${writeFile('src/math.js', HONEST_ROUTES)}`;
          const result = await judge(script);
          expect(result.status).toBe('tests_green');
          expect(result.verification?.findings).toEqual([]);
        },
      );
    }

    when(`${runner} honest`)(`still calls an honest fix of the ${runner} project green, with no finding`, async () => {
      const result = await judge(project.honest);
      expect(result.status).toBe('tests_green');
      expect(result.verification?.findings).toEqual([]);
      // The fixed test passed from a copy of its file too; mocha, which takes no file, is given the
      // test's name, which runs only from the copy once the original is out of the way.
      expect(result.verification?.alone?.copied).toEqual(
        runner === 'mocha'
          ? { ran: 1, command: expect.stringMatching(/--grep 'add sums'$/) }
          : { ran: 1, command: expect.stringMatching(/fixloop_copy_[0-9a-f]{8}/) },
      );
    });
  }
});
