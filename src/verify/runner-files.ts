// Everything that decides how tests run is protected (docs/design.md §3.2.2): a patch that changes the
// runner's configuration or entry points, a test file the baseline ran, or fixloop's own settings
// is not a fix, whatever the suite then says. Text sections are compared where a file holds more
// than the runner's settings (package.json's scripts and runner keys, pyproject's pytest section).
import type { FileChange } from '../core/file-change.ts';
import type { Finding } from '../core/findings.ts';
import { RUNNERS } from '../runners/registry.ts';

/**
 * Files that configure or start a runner, or that Python or Node load before any test: the package
 * managers' and the shared tools' ones here, each runner's own from its descriptor (src/runners/),
 * in that order, then what loads before any runner.
 */
const RUNNER_FILES: ReadonlyArray<readonly [RegExp, string]> = [
  [/(^|\/)\.npmrc$|(^|\/)\.yarnrc(\.yml)?$|(^|\/)\.pnpmfile\.c?js$/, "the package manager's settings start the test command"],
  ...RUNNERS.flatMap((r) => r.configuration.files),
  // Runners fixloop has no descriptor for are still runners.
  [/(^|\/)(ava|playwright)\.(config|workspace)\.[cm]?[jt]s$/, "the test runner's configuration"],
  [/(^|\/)(babel\.config\.[cm]?js|\.babelrc(\.[a-z]+)?)$/, 'it transforms the tests before they run'],
  [/(^|\/)(sitecustomize|usercustomize)\.py$|\.pth$/, 'Python runs it at start-up'],
  [/(^|\/)node_modules\//, 'installed packages are the environment, not the fix'],
  [/(^|\/)\.?fixloop\.ya?ml$|^\.github\/fixloop\//, "fixloop's own settings"],
];

/** package.json keys that decide how tests run (a dependency change is the new-dependency rule's). */
const PACKAGE_RUNNER_KEYS = [
  ...new Set(['scripts', ...RUNNERS.flatMap((r) => r.configuration.packageKeys), 'ava', 'tap', 'c8', 'nyc', 'type', 'imports']),
];

/** Sections of INI-like files that configure a runner (its descriptor's), coverage or tox. */
const SHARED_SECTIONS: Record<string, RegExp> = {
  'pyproject.toml': /^\[tool\.coverage[^\]]*\]/,
  'setup.cfg': /^\[coverage:[^\]]*\]/,
  'tox.ini': /^\[(tox[^\]]*|testenv[^\]]*)\]/,
};

/** Each file's section headers, shared and the runners', as one test of a header line. */
const SECTIONS: Record<string, (header: string) => boolean> = Object.fromEntries(
  [...new Set([...Object.keys(SHARED_SECTIONS), ...RUNNERS.flatMap((r) => Object.keys(r.configuration.sections))])].map(
    (file) => {
      const patterns = [SHARED_SECTIONS[file], ...RUNNERS.map((r) => r.configuration.sections[file])].filter(
        (p): p is RegExp => p !== undefined,
      );
      return [file, (header: string) => patterns.some((p) => p.test(header))];
    },
  ),
);

export interface ChangedText {
  path: string;
  before: string | null;
  after: string | null;
}

export function runnerFileFindings(
  changes: FileChange[],
  texts: ChangedText[],
  baselineTestFiles: ReadonlySet<string>,
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
    const rule = RUNNER_FILES.find(([pattern]) => pattern.test(path));
    if (rule) {
      findings.push({
        kind: 'runner_changed',
        path,
        message: `\`${path}\` decides how the tests run (${rule[1]}): a fix may not change it`,
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
    } else if (SECTIONS[name] && text && sectionsOf(text.before, SECTIONS[name]) !== sectionsOf(text.after, SECTIONS[name])) {
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

/** The text of the sections whose header matches, in order. */
function sectionsOf(text: string | null, header: (line: string) => boolean): string {
  const kept: string[] = [];
  let inside = false;
  for (const line of (text ?? '').split('\n')) {
    if (/^\s*\[/.test(line)) inside = header(line.trim());
    if (inside) kept.push(line.trimEnd());
  }
  return kept.join('\n');
}

/** Paths whose before and after texts the rule needs. */
export function needsText(path: string): boolean {
  const name = path.split('/').at(-1) ?? path;
  return name === 'package.json' || name in SECTIONS;
}
