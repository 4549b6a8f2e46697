// A check is fixed in the code: a patch that silences the check tool or changes what configures it is
// not a fix (src/verify/check-integrity.ts).
import { describe, expect, it } from 'vitest';
import { checkConfigFindings, silencingFindings } from '../../src/verify/check-integrity.ts';

const diff = (path: string, added: string[]) =>
  `diff --git a/${path} b/${path}\n--- a/${path}\n+++ b/${path}\n@@ -1,1 +1,${added.length + 1} @@\n${added.map((l) => `+${l}`).join('\n')}\n x\n`;

describe('silencingFindings', () => {
  it.each([
    ['src/a.js', '// eslint-disable-next-line no-unused-vars', 'eslint'],
    ['src/a.js', '/* eslint no-unused-vars: off */', 'eslint'],
    ['src/a.ts', '  // @ts-ignore', 'tsc'],
    ['src/a.ts', '// @ts-expect-error', 'tsc'],
    ['src/a.js', '// prettier-ignore', 'prettier'],
    ['app.py', 'import os  # noqa: F401', 'ruff'],
    ['app.py', 'x = f()  # type: ignore', 'mypy'],
    ['app.py', '# fmt: off', 'black'],
    ['app.py', 'import os  # isort: skip', 'isort'],
  ])('finds %s gaining `%s` (%s)', (path, line, tool) => {
    const findings = silencingFindings(diff(path, [line]));
    expect(findings.map((f) => [f.kind, f.path])).toContainEqual(['check_silenced', path]);
    expect(findings.some((f) => f.message.includes(`silences ${tool}`))).toBe(true);
  });

  it('reads only added lines: a silencing comment the patch removes or leaves alone is none', () => {
    const removed =
      'diff --git a/src/a.js b/src/a.js\n--- a/src/a.js\n+++ b/src/a.js\n@@ -1,2 +1,1 @@\n-// eslint-disable-next-line\n const a = 1;\n';
    expect(silencingFindings(removed)).toEqual([]);
    expect(silencingFindings(diff('src/a.js', ['const b = 2;']))).toEqual([]);
  });
});

describe('checkConfigFindings', () => {
  const changed = (path: string) => ({ path, kind: 'modified' as const, added: 1, removed: 0, binary: false });

  it("finds a change to a check tool's own file", () => {
    for (const path of [
      'eslint.config.js',
      'packages/web/.eslintrc.json',
      '.prettierrc',
      '.prettierignore',
      'tsconfig.json',
      'ruff.toml',
      '.flake8',
      'mypy.ini',
      '.isort.cfg',
    ])
      expect(checkConfigFindings([changed(path)], []).map((f) => f.kind)).toEqual(['check_config_changed']);
    expect(checkConfigFindings([changed('src/a.js')], [])).toEqual([]);
  });

  it("finds a change to a tool's section of a shared file, or its package.json key, and lets the rest change", () => {
    const before = '[project]\nname = "x"\n\n[tool.black]\nline-length = 88\n';
    const texts = (after: string) => [{ path: 'pyproject.toml', before, after }];
    expect(checkConfigFindings([changed('pyproject.toml')], texts(before.replace('88', '120')))[0]?.message).toContain('black');
    expect(checkConfigFindings([changed('pyproject.toml')], texts(before.replace('"x"', '"y"')))).toEqual([]);
    const pkg = (prettier: unknown) => JSON.stringify({ name: 'x', prettier });
    expect(
      checkConfigFindings([changed('package.json')], [{ path: 'package.json', before: pkg({}), after: pkg({ semi: false }) }]),
    ).toHaveLength(1);
  });
});
