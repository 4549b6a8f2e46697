// Does a version satisfy what a repository asks for: npm's range syntax (package.json `engines`) and
// a version prefix (`.nvmrc`'s `22`, `.python-version`'s `3.11`). A small check rather than the
// `semver` package, which fixloop does not depend on (it is only a dev dependency of its tools): the
// operators (`>=`, `<=`, `>`, `<`, `=`), caret, tilde, x-ranges, hyphen ranges and `||`, on release
// versions (a pre-release tag on the tool's version is ignored). Anything else is `null`: not
// understood, so nothing is claimed about it.

type Triple = [number, number, number];
/** A partial version: the numbers given (`22` → [22]), wildcards and missing parts left out. */
type Partial = number[];

/** `v20.20.2-nightly` → [20, 20, 2]; null when it does not start with a version. */
function release(version: string): Triple | null {
  const m = /^v?(\d+)\.(\d+)\.(\d+)/.exec(version.trim()) ?? /^v?(\d+)\.(\d+)()/.exec(version.trim());
  return m ? [Number(m[1]), Number(m[2]), Number(m[3] || 0)] : null;
}

/** `22`, `v22.1`, `1.x`, `*` → its numbers; null when it is not a (partial) version. */
function partial(text: string): Partial | null {
  if (text === '' || text === '*' || /^[xX]$/.test(text)) return [];
  const m = /^v?(\d+)(?:\.(\d+|[xX*]))?(?:\.(\d+|[xX*]))?(?:[-+][0-9A-Za-z.-]+)?$/.exec(text);
  if (!m) return null;
  const parts: number[] = [];
  for (const p of [m[1], m[2], m[3]]) {
    if (p === undefined || /^[xX*]$/.test(p)) break;
    parts.push(Number(p));
  }
  return parts;
}

function compare(a: Triple, b: Triple): number {
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return (a[i] ?? 0) - (b[i] ?? 0);
  return 0;
}

function floor(p: Partial): Triple {
  return [p[0] ?? 0, p[1] ?? 0, p[2] ?? 0];
}

/** The first version past everything `p` matches: `22` → 23.0.0, `22.1` → 22.2.0; null for `*`. */
function ceiling(p: Partial): Triple | null {
  if (p.length === 0) return null;
  if (p.length === 1) return [(p[0] ?? 0) + 1, 0, 0];
  if (p.length === 2) return [p[0] ?? 0, (p[1] ?? 0) + 1, 0];
  return [p[0] ?? 0, p[1] ?? 0, (p[2] ?? 0) + 1];
}

/** Is `v` within [low, high): the shape every comparator below reduces to. */
function within(v: Triple, low: Triple | null, high: Triple | null): boolean {
  return (low === null || compare(v, low) >= 0) && (high === null || compare(v, high) < 0);
}

function caretCeiling(p: Partial): Triple | null {
  // ^1.2.3 → <2.0.0; ^0.2.3 → <0.3.0; ^0.0.3 → <0.0.4: the left-most non-zero part is kept.
  const [major = 0, minor = 0] = p;
  if (major > 0 || p.length === 1) return ceiling(p.slice(0, 1));
  if (minor > 0 || p.length === 2) return ceiling(p.slice(0, 2));
  return ceiling(p);
}

/** One comparator (`>=18`, `^20.9`, `~1.2`, `22.x`) against `v`; null when not understood. */
function comparator(v: Triple, text: string): boolean | null {
  const m = /^(>=|<=|>|<|=|\^|~>?)?\s*(.*)$/.exec(text);
  const op = m?.[1] ?? '';
  const p = partial(m?.[2] ?? '');
  if (p === null) return null;
  switch (op) {
    case '>=':
      return compare(v, floor(p)) >= 0;
    case '<':
      return compare(v, floor(p)) < 0;
    case '>':
      return p.length === 0 ? false : compare(v, ceiling(p) ?? floor(p)) >= 0;
    case '<=':
      return p.length === 0 ? true : compare(v, ceiling(p) ?? floor(p)) < 0;
    case '^':
      return within(v, floor(p), caretCeiling(p));
    case '~':
    case '~>':
      return within(v, floor(p), ceiling(p.length > 1 ? p.slice(0, 2) : p));
    default:
      return within(v, floor(p), ceiling(p));
  }
}

/** One `||` alternative: a hyphen range, or comparators that must all hold. */
function alternative(v: Triple, text: string): boolean | null {
  const hyphen = /^(\S+)\s+-\s+(\S+)$/.exec(text);
  if (hyphen) {
    const [low, high] = [partial(hyphen[1] ?? ''), partial(hyphen[2] ?? '')];
    return low === null || high === null ? null : within(v, floor(low), ceiling(high));
  }
  // `>= 18` is one comparator: glue an operator to the version after it.
  const parts = text
    .replace(/(>=|<=|>|<|=|\^|~>?)\s+/g, '$1')
    .split(/\s+/)
    .filter(Boolean);
  let all = true;
  for (const part of parts.length > 0 ? parts : ['*']) {
    const held = comparator(v, part);
    if (held === null) return null;
    all &&= held;
  }
  return all;
}

/** Does `version` satisfy the npm-style `range`; null when either is not understood. */
export function satisfiesRange(version: string, range: string): boolean | null {
  const v = release(version);
  if (!v) return null;
  let any = false;
  for (const alt of range.trim().split('||')) {
    const held = alternative(v, alt.trim());
    if (held === null) return null;
    any ||= held;
  }
  return any;
}

/** Does `version` start with the version `prefix` (`22` matches 22.x.y; `3.11.7` only itself); null when not a version. */
export function matchesPrefix(version: string, prefix: string): boolean | null {
  const v = release(version);
  const p = /^v?\d+(\.\d+){0,2}$/.test(prefix.trim()) ? partial(prefix.trim()) : null;
  if (!v || !p) return null;
  return p.every((n, i) => v[i] === n);
}
