// Python to the assessment: `.py` files outside virtual environments and bytecode caches, rewritten with a decorator on each changed function
// (probe.ts) that loads the runtime (fixloop_probe.py and its parts) from the probe's folder.
import type { ProbeLanguage } from '../probe-language.ts';
import { pythonEntryPoints } from './entry-points.ts';
import { instrumentPython, PYTHON_PROBE_RUNTIME_FILES } from './probe.ts';

export const pythonLanguage: ProbeLanguage = {
  names: ['Python'],
  reads: (path) => /\.py$/.test(path),
  generated: (path) => /(^|\/)(\.venv|venv|site-packages|__pycache__)\//.test(path),
  instrument: instrumentPython,
  runtimeFiles: PYTHON_PROBE_RUNTIME_FILES,
  entryPoints: pythonEntryPoints,
};
