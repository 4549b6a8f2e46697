// pytest, started as `pytest` or `python -m pytest`.
import type { TestRunner } from '../runner.ts';
import { shellQuote } from '../../sandbox/shell-quote.ts';
import { CHECKOUT } from '../../core/test-report.ts';
import { parsePytest } from './parse-pytest.ts';
import { pytestLoadedNames } from './loaded-names.ts';
import { pytestGuard } from './pytest-guard.ts';
import { withoutCoveringPaths } from './covering-paths.ts';
import { nodeIdOf } from './subtest-id.ts';
import { pythonOf } from './python-of.ts';
import { warmPluginRewrites } from './plugin-rewrites.ts';

const STARTS = /(^|[\s;&|/])(python3?\s+-m\s+)?pytest\b/;

export const pytestRunner: TestRunner = {
  id: 'pytest',
  startedBy: (command) => STARTS.test(command),
  interpreter: pythonOf,
  warmToolchain: warmPluginRewrites,
  output: {
    parse: parsePytest,
    // Its short frames: "src/calc.py:4: AssertionError", "calc.py:6: ValueError", "tests/x.py:15: "
    frames: [/^([^\s:]+\.py):(\d+):(?: |$)/gm],
  },
  machineReport: {
    format: 'junit',
    file: 'pytest.xml',
    witness: 'pytest',
    // Asked through its environment, so the request reaches it through make, tox or a script; an
    // operator's own --junitxml (or --junit-xml) is the report already.
    ask: (context, path) =>
      /--junit-?xml/.test(`${context.command} ${context.env.PYTEST_ADDOPTS ?? ''}`)
        ? null
        : { env: { PYTEST_ADDOPTS: joined([context.env.PYTEST_ADDOPTS, `--junitxml=${path}`]) } },
  },
  focus: {
    // pytest's ids name their files already; a subtest runs with its test (subtest-id.ts), once.
    files: () => '',
    select: (failing) =>
      failing.every((t) => t.id.includes('::'))
        ? [...new Set(failing.map((t) => nodeIdOf(t.id)))].map(nodeIdWord).join(' ')
        : null,
    narrow: withoutCoveringPaths,
  },
  // Exit 5 is pytest's "no tests were collected" (also when a filter deselected them all).
  noTestsRan: { output: /no tests ran/, exit: { code: 5, words: /no tests ran|deselected/i } },
  // argparse's refusal, after pytest's `ERROR: usage: …` line (exit 4).
  refusedCommand: refusedArguments,
  configuration: {
    files: [
      [/(^|\/)(\.?pytest\.ini|\.?pytest\.toml|conftest\.py)$/, 'pytest reads it before any test'],
      // pytest loads every installed distribution's `pytest11` entry points: metadata is a plugin list.
      [/(^|\/)[^/]+\.(dist-info|egg-info)\/|^setup\.py$/, 'it declares the plugins and entry points Python loads'],
      [/^(pytest|py|pluggy)\.py$|^(_pytest|pluggy)\//, 'it shadows the test runner'],
    ],
    packageKeys: [],
    sections: { 'setup.cfg': /^(tool:pytest|options\.entry_points)$/, 'tox.ini': /^pytest$/ },
    tables: { 'pyproject.toml': ['tool.pytest', 'project.entry-points'] },
    generatedFolders: ['.pytest_cache/'],
  },
  coverage: { kind: 'python-plugin', argument: (module) => `-p ${module}` },
  // PYTEST_CURRENT_TEST names the running test; PYTEST_VERSION (8.2+) and xdist's PYTEST_XDIST_* say pytest runs.
  judged: { envVariables: /^(PYTEST_|_PYTEST)/, loadedNames: pytestLoadedNames },
  guard: pytestGuard,
};

/**
 * A node id as one shell word. An id that held the path of the checkout it ran in (`<checkout>`,
 * src/gate/checkout-neutral.ts) gets the folder the command runs in back, from the shell (pytest
 * selects by the exact id).
 */
function nodeIdWord(id: string): string {
  return id.split(CHECKOUT).map(shellQuote).join('"$PWD"');
}

function joined(parts: Array<string | undefined>): string {
  return parts.filter((p) => p !== undefined && p.trim() !== '').join(' ');
}

/**
 * pytest's own words for a command it refused; with the configuration file it read, whose `addopts`
 * may hold the arguments it refused (a plugin's, such as pytest-cov's `--cov`, where the plugin is
 * not installed).
 */
function refusedArguments(output: string): string | null {
  const refused = /ERROR: usage: /.test(output) ? (/error: (.+)$/m.exec(output)?.[1] ?? null) : null;
  const config = /^\s*(?:inifile|configfile): .*?([^/\s]+)\s*$/m.exec(output)?.[1];
  if (!refused || !config || !/unrecognized arguments/.test(refused)) return refused;
  return `${refused} (pytest read \`${config}\`, whose \`addopts\` may give them for a plugin, such as pytest-cov's \`--cov\`)`;
}
