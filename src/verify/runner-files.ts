// Everything that decides how tests run is protected (DESIGN.md §3.2.2): a patch that changes the
// runner's configuration or entry points, a test file the baseline ran, or fixloop's own settings
// is not a fix, whatever the suite then says. Text sections are compared where a file holds more
// than the runner's settings (package.json's scripts and runner keys, pyproject's pytest section).
import type { FileChange } from '../core/file-change.ts';
import type { Finding } from '../core/findings.ts';

/** Files that configure or start a runner, or that Python or Node load before any test. */
const RUNNER_FILES: Array<[RegExp, string]> = [
  [/(^|\/)\.npmrc$|(^|\/)\.yarnrc(\.yml)?$|(^|\/)\.pnpmfile\.c?js$/, 'the package manager\'s settings start the test command'],
  [/(^|\/)(jest|vitest|vite|ava|playwright)\.(config|workspace)\.[cm]?[jt]s$|(^|\/)\.mocharc(\.[a-z]+)?$|(^|\/)jest\.config\.json$/, 'the test runner\'s configuration'],
  [/(^|\/)(babel\.config\.[cm]?js|\.babelrc(\.[a-z]+)?)$/, 'it transforms the tests before they run'],
  [/(^|\/)(\.?pytest\.ini|\.?pytest\.toml|conftest\.py)$/, 'pytest reads it before any test'],
  // pytest loads every installed distribution's `pytest11` entry points: metadata is a plugin list.
  [/(^|\/)[^/]+\.(dist-info|egg-info)\/|^setup\.py$/, 'it declares the plugins and entry points Python loads'],
  [/(^|\/)(sitecustomize|usercustomize)\.py$|\.pth$/, 'Python runs it at start-up'],
  [/^(pytest|py|pluggy)\.py$|^(_pytest|pluggy)\//, 'it shadows the test runner'],
  [/(^|\/)node_modules\//, 'installed packages are the environment, not the fix'],
  [/(^|\/)fixloop\.ya?ml$|^\.github\/fixloop\//, 'fixloop\'s own settings'],
];

/** package.json keys that decide how tests run (a dependency change is the new-dependency rule's). */
const PACKAGE_RUNNER_KEYS = ['scripts', 'jest', 'mocha', 'ava', 'vitest', 'tap', 'c8', 'nyc', 'type', 'imports'];

/** Sections of INI-like files that configure pytest or tox. */
const SECTIONS: Record<string, RegExp> = {
  'pyproject.toml': /^\[(tool\.(pytest|coverage)[^\]]*|project\.entry-points[^\]]*)\]/,
  'setup.cfg': /^\[(tool:pytest|coverage:[^\]]*|options\.entry_points)\]/,
  'tox.ini': /^\[(pytest|tox[^\]]*|testenv[^\]]*)\]/,
};

export interface ChangedText {
  path: string;
  before: string | null;
  after: string | null;
}

export function runnerFileFindings(changes: FileChange[], texts: ChangedText[], baselineTestFiles: ReadonlySet<string>): Finding[] {
  const findings: Finding[] = [];
  const textOf = new Map(texts.map((t) => [t.path, t]));
  for (const change of changes) {
    const path = change.path;
    if (baselineTestFiles.has(path)) {
      findings.push({ kind: 'runner_changed', path, message: `\`${path}\` holds tests the baseline ran: a fix may not change them` });
      continue;
    }
    const rule = RUNNER_FILES.find(([pattern]) => pattern.test(path));
    if (rule) {
      findings.push({ kind: 'runner_changed', path, message: `\`${path}\` decides how the tests run (${rule[1]}): a fix may not change it` });
      continue;
    }
    const text = textOf.get(path);
    const name = path.split('/').at(-1) ?? path;
    if (name === 'package.json' && text && packageRunnerChanged(text.before, text.after)) {
      findings.push({ kind: 'runner_changed', path, message: `\`${path}\`: its scripts or test runner settings changed (a fix may not change how the tests run)` });
    } else if (SECTIONS[name] && text && sectionsOf(text.before, SECTIONS[name]) !== sectionsOf(text.after, SECTIONS[name])) {
      findings.push({ kind: 'runner_changed', path, message: `\`${path}\`: its test runner section changed (a fix may not change how the tests run)` });
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

/** The text of the sections whose header matches, in order. */
function sectionsOf(text: string | null, header: RegExp): string {
  const kept: string[] = [];
  let inside = false;
  for (const line of (text ?? '').split('\n')) {
    if (/^\s*\[/.test(line)) inside = header.test(line.trim());
    if (inside) kept.push(line.trimEnd());
  }
  return kept.join('\n');
}

/** Paths whose before and after texts the rule needs. */
export function needsText(path: string): boolean {
  const name = path.split('/').at(-1) ?? path;
  return name === 'package.json' || name in SECTIONS;
}
