// Python to the assessment: `.py` files outside virtual environments and bytecode caches, rewritten with a decorator on each changed function
// (probe.ts) that loads the runtime (fixloop_probe.py and its parts) from the probe's folder.
import type { ProbeLanguage } from '../probe-language.ts';
import { pythonEntryPoints } from './entry-points.ts';
import { instrumentPython, PYTHON_PROBE_RUNTIME_FILES } from './probe.ts';
import { fileURLToPath } from 'node:url';
import { directRunnerOf } from '../../runners/registry.ts';
import { shellQuote } from '../../sandbox/shell-quote.ts';
import { wheelFiles } from './wheel-files.ts';

/** The script and the part of the probe it loads (fixloop_outside.py). */
const OUTSIDE_FILES = ['fixloop_outside.py', 'fixloop_probe_canon.py', 'fixloop_probe_replay.py'].map((name) => ({
  from: fileURLToPath(new URL(`./${name}`, import.meta.url)),
  name,
}));

export const pythonLanguage: ProbeLanguage = {
  names: ['Python'],
  reads: (path) => /\.py$/.test(path),
  generated: (path) => /(^|\/)(\.venv|venv|site-packages|__pycache__)\//.test(path),
  instrument: instrumentPython,
  runtimeFiles: PYTHON_PROBE_RUNTIME_FILES,
  outside: {
    files: OUTSIDE_FILES,
    // The interpreter pytest runs under: it has the repository's dependencies.
    command: ({ testCommand, folder, calls, results }) =>
      [
        directRunnerOf(testCommand)?.interpreter?.(testCommand) ?? 'python3',
        ...[`${folder}/fixloop_outside.py`, `${folder}/${calls}`, `${folder}/${results}`].map(shellQuote),
      ].join(' '),
    shipped: wheelFiles,
  },
  entryPoints: pythonEntryPoints,
};
