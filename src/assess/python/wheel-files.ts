// What a Python project's wheel ships: the project's own build backend builds one in the tests'
// sandbox, with the interpreter its tests run on (fixloop_wheel_files.py: nothing downloaded), and
// the files it packed are listed as checkout paths. A project with no build configuration
// (no pyproject.toml, no setup.py) is not published: its checkout is what runs.
import { access } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ShippedFiles } from '../probe-language.ts';
import { directRunnerOf } from '../../runners/registry.ts';
import { shellQuote } from '../../sandbox/shell-quote.ts';

const SCRIPT = 'fixloop_wheel_files.py';

export const wheelFiles: ShippedFiles = {
  async published(dir) {
    const present = (name: string) =>
      access(join(dir, name)).then(
        () => true,
        () => false,
      );
    return (await present('pyproject.toml')) || (await present('setup.py'));
  },
  files: [{ from: fileURLToPath(new URL(`./${SCRIPT}`, import.meta.url)), name: SCRIPT }],
  command: ({ testCommand, folder, list }) =>
    [
      directRunnerOf(testCommand)?.interpreter?.(testCommand) ?? 'python3',
      ...[`${folder}/${SCRIPT}`, list, `${folder}/wheel`].map(shellQuote),
      '> /dev/null 2>&1',
    ].join(' '),
  paths(text) {
    try {
      const list = JSON.parse(text) as unknown;
      return Array.isArray(list) && list.every((path) => typeof path === 'string') ? new Set(list as string[]) : null;
    } catch {
      return null;
    }
  },
};
