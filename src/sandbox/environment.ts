// The allow-listed environment of every command fixloop runs for a repository (docs/design.md §3.1.1):
// nothing of fixloop's own environment reaches untrusted code except these few variables. The PATH is
// the user's (user-path.ts), never with fixloop's own install folders in front.
import { userPath } from './user-path.ts';

export function sandboxEnvironment(extra: Record<string, string>, home: string): Record<string, string> {
  const lang = process.env.LANG && /^[A-Za-z0-9_.@-]+$/.test(process.env.LANG) ? process.env.LANG : 'C.UTF-8';
  return {
    PATH: userPath(process.env.PATH) || '/usr/local/bin:/usr/bin:/bin',
    HOME: home,
    TMPDIR: home,
    LANG: lang,
    LC_ALL: lang,
    TZ: 'UTC',
    CI: 'true',
    // Plain output parses reliably: no colours, no interactive terminal tricks.
    NO_COLOR: '1',
    FORCE_COLOR: '0',
    TERM: 'dumb',
    // Python writes no bytecode cache: a candidate edit of the same size within the same second as a
    // cached compile would otherwise run the old code (CPython checks only mtime in seconds and size),
    // and the repair engine would judge the wrong candidate. It still reads the caches installed
    // beside the toolchain's modules (the standard library, site-packages, a virtualenv pip filled);
    // a throw-away cache prefix made every command compile all of them again (~0.7 s per pytest
    // start). Caches in the workspace are never part of a patch (file-walker.ts), so the replay of a
    // pristine checkout never reads one the engine wrote. pytest's rewritten plugins, which it would
    // otherwise make again at every start, are cached beside the toolchain before the first pytest
    // command instead, outside the sandbox (src/runners/pytest/plugin-rewrites.ts).
    PYTHONDONTWRITEBYTECODE: '1',
    ...extra,
  };
}
