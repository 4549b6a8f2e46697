// The languages the assessment probes, in one list: which files each reads, which no language probes
// (installed or generated code, declaration files), and the runtime files each copies, which exist.
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PROBE_LANGUAGES, probeable, probedKinds, probeLanguageOf } from '../../src/assess/probe-languages.ts';

describe('the probe languages', () => {
  it("finds a file's language by its name, installed or generated code too (an entry point in dist/ is read)", () => {
    expect(probeLanguageOf('src/url.ts')?.names).toContain('TypeScript');
    expect(probeLanguageOf('lib/index.mjs')?.names).toContain('JavaScript');
    expect(probeLanguageOf('pkg/mod.py')?.names).toEqual(['Python']);
    expect(probeLanguageOf('dist/index.js')?.names).toContain('JavaScript');
    expect(probeLanguageOf('README.md')).toBeNull();
  });

  it("probes the repository's own source files, not installed or generated code of any language", () => {
    for (const path of ['src/url.ts', 'lib/a.cjs', 'pkg/mod.py', 'src/app.tsx']) expect(probeable(path), path).toBe(true);
    for (const path of [
      'node_modules/x/index.js',
      'dist/index.js',
      'build/lib/a.js',
      'types/index.d.ts',
      'src/a.d.mts',
      '.venv/lib/site.py',
      'venv/bin/tool.py',
      'lib/site-packages/x.py',
      'pkg/__pycache__/mod.py',
      // Another language's folders count too: a build script inside an installed package.
      'node_modules/gyp/pylib/gyp.py',
      'README.md',
    ])
      expect(probeable(path), path).toBe(false);
  });

  it('names what it reads in a message, and every runtime file a language copies exists', () => {
    expect(probedKinds()).toBe('JavaScript, TypeScript or Python');
    const files = PROBE_LANGUAGES.flatMap((language) => language.runtimeFiles);
    expect(files.length).toBeGreaterThan(0);
    for (const { from } of files) expect(existsSync(from), from).toBe(true);
  });
});
