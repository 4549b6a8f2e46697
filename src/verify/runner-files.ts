// Everything that decides how tests run is protected (docs/design.md §3.2.2): a patch that changes the
// runner's configuration or entry points, a test file the baseline ran, or fixloop's own settings
// is not a fix, whatever the suite then says. Where a file holds more than the runner's settings
// (package.json's scripts and runner keys, pyproject's pytest tables, setup.cfg's and tox.ini's
// sections), those settings are compared as the runner reads them (config-content.ts).
import { createRequire } from 'node:module';
import type { FileChange } from '../core/file-change.ts';
import type { Finding } from '../core/findings.ts';
import { RUNNERS } from '../runners/registry.ts';
import { iniSections, tomlTables } from './config-content.ts';
import { importsConditionChanged } from './package-imports.ts';

const GUARD_NAMES = createRequire(import.meta.url)('../runners/node-guard/guard-names.cjs') as { SETUP: RegExp };

/**
 * Files that configure or start a runner, or that Python or Node load before any test: the package
 * managers' and the shared tools' ones here, each runner's own from its descriptor (src/runners/),
 * in that order, then what loads before any runner.
 */
const RUNNER_FILES: ReadonlyArray<readonly [RegExp, string]> = [
  [/(^|\/)\.npmrc$|(^|\/)\.yarnrc(\.yml)?$|(^|\/)\.pnpmfile\.c?js$/, "the package manager's settings start the test command"],
  // The environment of the test run only (vite's test mode, dotenv-flow, a script's `--env-file`):
  // a setting made there is on under test and off for every user.
  [/(^|\/)\.env\.test(\.local)?$/, 'an environment file the test run alone loads'],
  ...RUNNERS.flatMap((r) => r.configuration.files),
  // Runners fixloop has no descriptor for are still runners.
  [/(^|\/)(ava|playwright)\.(config|workspace)\.[cm]?[jt]s$/, "the test runner's configuration"],
  // Babel's project and file-relative configurations, in every form it reads (babel.config.json,
  // .cts): jest's default transform applies them to the code under test too.
  [/(^|\/)(babel\.config\.([cm]?[jt]s|json)|\.babelrc(\.[a-z]+)?)$/, 'it transforms the tests before they run'],
  // The names the runtime guard takes as the tests' side (guard-names.cjs): what it exempts, no patch changes.
  [GUARD_NAMES.SETUP, 'a runner loads it before the tests (a test setup file)'],
  [/(^|\/)(sitecustomize|usercustomize)\.py$|\.pth$/, 'Python runs it at start-up'],
  [/(^|\/)node_modules\//, 'installed packages are the environment, not the fix'],
  [/(^|\/)\.?fixloop\.ya?ml$|^\.github\/fixloop\//, "fixloop's own settings"],
];

/**
 * package.json keys that decide how tests run (a dependency change is the new-dependency rule's);
 * `imports` only where an entry is keyed on a condition node does not set (package-imports.ts).
 * `babel` is Babel's configuration as a key, as the files above are as files.
 */
const PACKAGE_RUNNER_KEYS = [
  ...new Set(['scripts', ...RUNNERS.flatMap((r) => r.configuration.packageKeys), 'ava', 'tap', 'c8', 'nyc', 'babel', 'type']),
];

/** Sections of INI files that configure coverage or tox, by name, beside each runner's own. */
const SHARED_SECTIONS: Record<string, RegExp> = {
  'setup.cfg': /^coverage:/,
  'tox.ini': /^(tox|testenv)(:|$)/,
};
/** Tables of TOML files that configure coverage or tox, beside each runner's own. */
const SHARED_TABLES: Record<string, readonly string[]> = { 'pyproject.toml': ['tool.coverage', 'tool.tox'] };

/** Each INI file's sections that decide how tests run, as one test of a section's name. */
const SECTIONS: Record<string, (name: string) => boolean> = Object.fromEntries(
  [...new Set([...Object.keys(SHARED_SECTIONS), ...RUNNERS.flatMap((r) => Object.keys(r.configuration.sections))])].map(
    (file) => {
      const patterns = [SHARED_SECTIONS[file], ...RUNNERS.map((r) => r.configuration.sections[file])].filter(
        (p): p is RegExp => p !== undefined,
      );
      return [file, (name: string) => patterns.some((p) => p.test(name))];
    },
  ),
);

/** Each TOML file's tables that decide how tests run. */
const TABLES: Record<string, readonly string[]> = Object.fromEntries(
  [...new Set([...Object.keys(SHARED_TABLES), ...RUNNERS.flatMap((r) => Object.keys(r.configuration.tables ?? {}))])].map(
    (file) => [file, [...(SHARED_TABLES[file] ?? []), ...RUNNERS.flatMap((r) => r.configuration.tables?.[file] ?? [])]],
  ),
);

/** Whether the protection list names this path by itself (before any content comparison). */
export function protectedByName(path: string): boolean {
  return RUNNER_FILES.some(([pattern]) => pattern.test(path));
}

export interface ChangedText {
  path: string;
  before: string | null;
  after: string | null;
}

/**
 * `named`: the files the test command or a runner's setup keys name in the pristine checkout, and why
 * (harness-named-files.ts), protected as the runner's own are.
 */
export function runnerFileFindings(
  changes: FileChange[],
  texts: ChangedText[],
  baselineTestFiles: ReadonlySet<string>,
  named: ReadonlyMap<string, string> = new Map(),
): Finding[] {
  const findings: Finding[] = [];
  const textOf = new Map(texts.map((t) => [t.path, t]));
  for (const change of changes) {
    const path = change.path;
    if (baselineTestFiles.has(path)) {
      findings.push({
        kind: 'runner_changed',
        path,
        message: `\`${path}\` holds tests the baseline ran: a fix may not change them`,
      });
      continue;
    }
    const why = RUNNER_FILES.find(([pattern]) => pattern.test(path))?.[1] ?? named.get(path);
    if (why !== undefined) {
      findings.push({
        kind: 'runner_changed',
        path,
        message: `\`${path}\` decides how the tests run (${why}): a fix may not change it`,
      });
      continue;
    }
    const text = textOf.get(path);
    const name = path.split('/').at(-1) ?? path;
    if (name === 'package.json' && text && packageRunnerChanged(text.before, text.after)) {
      findings.push({
        kind: 'runner_changed',
        path,
        message: `\`${path}\`: its scripts or test runner settings changed (a fix may not change how the tests run)`,
      });
    } else if (name === 'package.json' && text && importsConditionChanged(text.before, text.after)) {
      findings.push({
        kind: 'runner_changed',
        path,
        message: `\`${path}\`: an \`imports\` entry keyed on a condition node does not set by itself changed (a test runner may set it, a user's program does not)`,
      });
    } else if (text && runnerSettingsChanged(name, text)) {
      findings.push({
        kind: 'runner_changed',
        path,
        message: `\`${path}\`: its test runner section changed (a fix may not change how the tests run)`,
      });
    }
  }
  return findings;
}

function packageRunnerChanged(before: string | null, after: string | null): boolean {
  const keys = (text: string | null) => {
    try {
      const json = JSON.parse(text ?? '{}') as Record<string, unknown>;
      return JSON.stringify(PACKAGE_RUNNER_KEYS.map((k) => json[k] ?? null));
    } catch {
      return `unreadable:${text ?? ''}`;
    }
  };
  return keys(before) !== keys(after);
}

/** Whether the runner's settings in a file that holds more than them say something else now. */
function runnerSettingsChanged(name: string, text: ChangedText): boolean {
  const tables = TABLES[name];
  if (tables) return tomlTables(text.before, tables) !== tomlTables(text.after, tables);
  const sections = SECTIONS[name];
  return sections !== undefined && iniSections(text.before, sections) !== iniSections(text.after, sections);
}

/** Paths whose before and after texts the rule needs. */
export function needsText(path: string): boolean {
  const name = path.split('/').at(-1) ?? path;
  return name === 'package.json' || name in SECTIONS || name in TABLES;
}
