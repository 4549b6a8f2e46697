// What users do not get of a checkout (src/assess/unshipped-files.ts), on a real Python project whose
// wheel cannot be built: the packaging tool runs once for the original, and not again for a version
// that changes only its functions' own files; a version that changes a file of the packaging runs it
// again.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PROBE_FOLDER } from '../../src/assess/probe-checkout.ts';
import { unshippedFiles, type ShipsAt } from '../../src/assess/unshipped-files.ts';
import type { SuiteRunner } from '../../src/gate/setup-then-gate.ts';
import { createProcessSandbox } from '../../src/sandbox/process-sandbox.ts';

const sandbox = createProcessSandbox();
let dir: string;
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('the files a package ships, when its tool cannot list them', () => {
  it('lists them once for the original, and again only for a version that changes more than its functions’ files', async () => {
    dir = await mkdtemp(join(tmpdir(), 'unshipped-files-'));
    await mkdir(join(dir, 'calc'), { recursive: true });
    await mkdir(join(dir, PROBE_FOLDER));
    await writeFile(join(dir, 'pyproject.toml'), '[build-system]\nbuild-backend = "no_such_backend"\n');
    await writeFile(join(dir, 'calc/core.py'), 'def add(a, b):\n    return a + b\n');
    const listings: string[] = [];
    const suite = {
      testCommand: 'python3 -m pytest',
      plain: (cwd: string, command: string, timeoutMs: number) => {
        if (command.includes('fixloop_wheel_files.py')) listings.push(command);
        return sandbox.run({ command, cwd, timeoutMs });
      },
    } as unknown as SuiteRunner;
    const logged: string[] = [];
    const at: ShipsAt = { dir, suite, left: () => 60_000, log: (line) => logged.push(line), listing: { failed: null } };
    const functions = [{ name: 'add', path: 'calc/core.py', original: 'def add(a, b):\n    return a + b\n' }];

    await unshippedFiles(at, functions, new Set(['calc/core.py']));
    expect(listings).toHaveLength(1);
    expect(at.listing?.failed).toContain('fixloop_wheel_files.py');

    // The patch changed the function's file alone: the listing would fail the same way.
    await unshippedFiles(at, functions, new Set(['calc/core.py']));
    expect(listings).toHaveLength(1);
    expect(logged.at(-1)).toContain("the package's files are not known");
    expect(logged.at(-1)).toContain('(for the original; not listed again)');

    // One that changes the packaging too is listed again.
    await unshippedFiles(at, functions, new Set(['calc/core.py', 'pyproject.toml']));
    expect(listings).toHaveLength(2);
  });
});
