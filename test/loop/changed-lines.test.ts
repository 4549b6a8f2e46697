import { describe, expect, it } from 'vitest';
import { parseChangedLines } from '../../src/loop/changed-lines.ts';

describe('parseChangedLines', () => {
  it('reads the new-side lines of each hunk', () => {
    const diff = [
      'diff --git a/src/a.js b/src/a.js',
      '--- a/src/a.js',
      '+++ b/src/a.js',
      '@@ -3 +3 @@ export function f() {',
      '-  return 1;',
      '+  return 2;',
      '@@ -10,0 +11,2 @@',
      '+x',
      '+y',
      'diff --git a/src/gone.js b/src/gone.js',
      '--- a/src/gone.js',
      '+++ /dev/null',
      '@@ -1,2 +0,0 @@',
      'diff --git a/b.py b/b.py',
      '--- a/b.py',
      '+++ b/b.py',
      '@@ -7,2 +6,0 @@',
    ].join('\n');
    expect(parseChangedLines(diff)).toEqual([
      { file: 'src/a.js', lines: [3, 11, 12] },
      { file: 'b.py', lines: [6] },
    ]);
  });
});
