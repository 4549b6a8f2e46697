// A descriptor fixloop inherited from whoever started it never reaches the repository's code: a
// child fixloop process is started with an open file on fd 200 (Node marks a few low ones
// close-on-exec itself; a supervisor's socket or a shell's redirection lands anywhere), and its
// sandboxed command looks.
import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bwrapWorks } from '../../src/sandbox/bwrap-sandbox.ts';

const dir = mkdtempSync(join(tmpdir(), 'fixloop-fds-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const requireBwrap = process.env.FIXLOOP_REQUIRE_BWRAP === '1';
const FD = 200;

function childSees(backend: 'process' | 'bwrap'): { before: number[]; seen: string } {
  const secret = join(dir, 'secret.txt');
  writeFileSync(secret, 'the app key\n');
  const script = join(dir, `probe-${backend}.ts`);
  const src = resolve('src/sandbox');
  writeFileSync(
    script,
    [
      `import { inheritedDescriptors } from '${src}/inherited-descriptors.ts';`,
      `import { createProcessSandbox } from '${src}/process-sandbox.ts';`,
      `import { createBwrapSandbox } from '${src}/bwrap-sandbox.ts';`,
      'const before = inheritedDescriptors();',
      `const sandbox = ${backend === 'bwrap' ? 'createBwrapSandbox()' : 'createProcessSandbox()'};`,
      `const result = await sandbox.run({ command: 'readlink /proc/$$/fd/${FD} || echo none', cwd: '${dir}', timeoutMs: 20000 });`,
      'console.log(JSON.stringify({ before, seen: result.output.trim() }));',
    ].join('\n'),
  );
  const fd = openSync(secret, 'r');
  try {
    const stdio = [...Array.from({ length: FD }, (_, i) => (i === 1 || i === 2 ? 'pipe' : 'ignore')), fd] as Array<
      'pipe' | 'ignore' | number
    >;
    const child = spawnSync(process.execPath, [script], {
      stdio,
      encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
    });
    if (child.status !== 0) throw new Error(child.stderr);
    return JSON.parse(child.stdout.trim().split('\n').at(-1) ?? '{}') as { before: number[]; seen: string };
  } finally {
    closeSync(fd);
  }
}

describe('inherited file descriptors', () => {
  it('are closed before the first command under the process backend', () => {
    const { before, seen } = childSees('process');
    expect(before).toContain(FD);
    expect(seen).toBe('none');
  });

  it.skipIf(!bwrapWorks() && !requireBwrap)('are closed before the first command under bwrap', () => {
    const { before, seen } = childSees('bwrap');
    expect(before).toContain(FD);
    expect(seen).toBe('none');
  });
});
