// The top-level import names pytest loads, asked of pytest itself (docs/design.md §3.2.2): a package or a
// module a patch adds at the repository's top under one of them (`pytest/`, `pluggy.py`, `json.py`)
// is found by `python -m pytest` before the real one, and runs in its place. The names are the
// interpreter's own after pytest has started with its plugins: `sys.modules` in an empty folder, so
// nothing of the repository is among them.
import type { LoadedNames } from '../runner.ts';
import { shellQuote } from '../../sandbox/shell-quote.ts';
import { pythonOf } from './python-of.ts';

const MARK = 'fixloop-loaded-names:';

/** pytest started in-process on the empty folder it runs in (collection only), then the names. */
const SCRIPT = [
  'import sys, pytest',
  'pytest.main(["--collect-only", "-q", "-p", "no:cacheprovider", "."])',
  `print("${MARK}", " ".join(sorted({m.split(".")[0] for m in list(sys.modules)})))`,
].join('\n');

export const pytestLoadedNames: LoadedNames = {
  command: (testCommand) => `${pythonOf(testCommand)} -c ${shellQuote(SCRIPT)}`,
  parse: (output) => {
    const line = output.split('\n').find((l) => l.startsWith(MARK));
    const names = line
      ?.slice(MARK.length)
      .trim()
      .split(/\s+/)
      .filter((n) => /^[A-Za-z_][\w]*$/.test(n));
    return names && names.length > 0 ? names : null;
  },
  // `python -m pytest` puts the folder it starts in first on sys.path: the repository's top.
  nameOf: (path) => {
    const [top, ...rest] = path.split('/');
    if (!top || !/\.(py|pyc|pyd|so)$/.test(path)) return null;
    // `json.py`, `_speedups.cpython-311-x86_64-linux-gnu.so`; or a folder of Python files, `pytest/`.
    const name = rest.length === 0 ? /^([A-Za-z_]\w*)\./.exec(top)?.[1] : /^[A-Za-z_]\w*$/.exec(top)?.[0];
    return name ?? null;
  },
};
