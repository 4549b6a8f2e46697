import { describe, expect, it } from 'vitest';
import { defaultRepoConfig } from '../../src/core/repo-config.ts';
import type { TestCaseResult, TestReport } from '../../src/core/test-report.ts';
import { compareTests } from '../../src/verify/compare-tests.ts';
import { checkConstraints } from '../../src/verify/constraints.ts';
import { findNewDependencies } from '../../src/verify/new-dependencies.ts';
import { checkTestIntegrity } from '../../src/verify/test-integrity.ts';
import { createPathPolicy } from '../../src/workspace/path-policy.ts';

function report(tests: [string, TestCaseResult['status']][], counts?: Partial<TestReport>): TestReport {
  const list = tests.map(([id, status]) => ({ id, name: id, status }));
  const n = (s: string) => list.filter((t) => t.status === s).length;
  return {
    format: 'pytest',
    parsed: true,
    passed: n('passed'),
    failed: n('failed'),
    skipped: n('skipped'),
    total: list.length,
    tests: list,
    ...counts,
  };
}

describe('compareTests', () => {
  it('classifies each baseline test', () => {
    const base = report([
      ['a', 'failed'],
      ['b', 'passed'],
      ['c', 'failed'],
      ['d', 'passed'],
      ['e', 'passed'],
    ]);
    const final = report([
      ['a', 'passed'],
      ['b', 'failed'],
      ['c', 'failed'],
      ['d', 'skipped'],
    ]);
    expect(compareTests(base, final)).toEqual({
      failToPass: ['a'],
      passToFail: ['b'],
      stillFailing: ['c'],
      newlySkipped: ['d'],
      removed: ['e'],
    });
  });

  it('takes unlisted tests as passed when a green run’s output names some but not all (it lists only some outcomes)', () => {
    const base = report([['t::a', 'failed']], { passed: 3, total: 4 });
    const final = report([['t::x', 'skipped']], { passed: 3, failed: 0, skipped: 1, total: 4 });
    expect(compareTests(base, final).failToPass).toEqual(['t::a']);
  });

  it('takes no test as passed from counts that name none (`pytest -q` green, the records naming none)', () => {
    const base = report([['t::a', 'failed']], { passed: 3, total: 4 });
    const final = report([], { passed: 4, failed: 0, total: 4 });
    expect(compareTests(base, final)).toMatchObject({ failToPass: [], removed: [] });
    expect(compareTests(base, { ...final, view: 'counts' }).failToPass).toEqual([]);
  });
});

describe('checkTestIntegrity', () => {
  it('finds fewer tests, newly skipped and removed tests, and says nothing without per-test results', () => {
    const base = report([
      ['a', 'failed'],
      ['b', 'passed'],
    ]);
    expect(checkTestIntegrity(base, report([['a', 'passed']])).map((f) => f.kind)).toEqual(['test_count_lower', 'test_removed']);
    expect(
      checkTestIntegrity(
        base,
        report([
          ['a', 'passed'],
          ['b', 'skipped'],
        ]),
      ).map((f) => f.kind),
    ).toEqual(['test_newly_skipped']);
    expect(
      checkTestIntegrity(
        base,
        report([
          ['a', 'passed'],
          ['b', 'passed'],
        ]),
      ),
    ).toEqual([]);
    expect(checkTestIntegrity(base, { ...report([]), parsed: false })).toEqual([]);
  });
});

describe('path policy and constraints', () => {
  const config = defaultRepoConfig();
  const policy = createPathPolicy(config.paths);

  it('protects the common test conventions and .github, and allows source files', () => {
    for (const path of [
      'test/x.js',
      'tests/test_a.py',
      'src/__tests__/a.ts',
      'a.test.ts',
      'src/b.spec.js',
      'pkg/a_test.py',
      'conftest.py',
      'x_test.go',
      '.github/workflows/ci.yml',
      '.github/fixloop.yml',
    ]) {
      expect(policy.check(path)?.kind, path).toBe('path_protected');
    }
    for (const path of ['src/a.js', 'lib/testing_utils.py', 'contest.py', 'src/latest.ts', 'README.md'])
      expect(policy.check(path), path).toBeNull();
  });

  it('keeps workflows protected even when the configuration protects nothing, and honours allowed paths', () => {
    const open = createPathPolicy({ allowed: ['src/**'], protected: [] });
    expect(open.check('.github/workflows/ci.yml')?.kind).toBe('path_protected');
    expect(open.check('docs/x.md')?.kind).toBe('path_not_allowed');
    expect(open.check('src/ok.js')).toBeNull();
  });

  it('limits files and lines changed and refuses binary changes', () => {
    const limits = { ...config.constraints, maxFilesChanged: 1, maxLinesChanged: 3 };
    const findings = checkConstraints(
      [
        { path: 'src/a.js', kind: 'modified', added: 2, removed: 1, binary: false },
        { path: 'src/logo.png', kind: 'created', added: 0, removed: 0, binary: true },
        { path: 'test/a.test.js', kind: 'deleted', added: 0, removed: 1, binary: false },
      ],
      policy,
      limits,
    );
    expect(findings.map((f) => f.kind)).toEqual(['binary_change', 'path_protected', 'too_many_files', 'too_many_lines']);
  });
});

describe('findNewDependencies', () => {
  it('reads the manifests of npm, pip, poetry, Go, Cargo, Maven and Gradle', () => {
    expect(
      findNewDependencies('package.json', '{"dependencies":{"a":"1"}}', '{"dependencies":{"a":"1"},"devDependencies":{"b":"2"}}'),
    ).toEqual(['b']);
    expect(
      findNewDependencies('requirements-dev.txt', 'requests==2\n# c\n', 'requests==2\nRequests_Toolbelt>=1\n-r base.txt\n'),
    ).toEqual(['requests-toolbelt']);
    expect(
      findNewDependencies(
        'pyproject.toml',
        '[project]\ndependencies = ["httpx>=0.2"]\n',
        '[project]\ndependencies = [\n  "httpx>=0.2",\n  "rich",\n]\n[tool.poetry.dependencies]\npython = "^3.11"\nclick = "^8"\n',
      ),
    ).toEqual(['click', 'rich']);
    expect(
      findNewDependencies(
        'go.mod',
        'module m\nrequire a.io/x v1\n',
        'module m\nrequire (\n\ta.io/x v1\n\tb.io/y v2 // indirect\n)\n',
      ),
    ).toEqual(['b.io/y']);
    expect(
      findNewDependencies(
        'Cargo.toml',
        '[dependencies]\nserde = "1"\n',
        '[dependencies]\nserde = "1"\n[dev-dependencies]\ntokio = { version = "1" }\n',
      ),
    ).toEqual(['tokio']);
    expect(
      findNewDependencies(
        'pom.xml',
        '<dependencies></dependencies>',
        '<dependencies><dependency><groupId>org.x</groupId><artifactId>y</artifactId></dependency></dependencies>',
      ),
    ).toEqual(['org.x:y']);
    expect(
      findNewDependencies('build.gradle', "implementation 'a:b:1'\n", 'implementation \'a:b:1\'\ntestImplementation("c:d:2")\n'),
    ).toEqual(['c:d']);
    expect(findNewDependencies('src/a.js', 'x', 'y')).toEqual([]);
  });
});
