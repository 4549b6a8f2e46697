// package.json's `imports` map (subpath imports, `#name` specifiers) is the program's own wiring: a
// fix may add or correct an entry, and a user's program resolves it as the tests do. What a user's
// program may not resolve as the tests do is an entry keyed on a condition node does not set by
// itself (`"#impl": { "test": …, "development": …, "default": … }`): runners and bundlers set
// conditions of their own, so such an entry can hand the tests one file and users another. The look
// from outside the runner resolves `imports` as plain node does, and sees a plain entry's effect.
const NODE_CONDITIONS = new Set(['node', 'import', 'require', 'default', 'module-sync', 'node-addons']);

/**
 * Whether an `imports` entry the patch added, changed or removed is keyed, at any depth, on a
 * condition other than node's own; a package.json that no longer parses counts as such a change.
 */
export function importsConditionChanged(before: string | null, after: string | null): boolean {
  const was = importsOf(before);
  const now = importsOf(after);
  if (was === null || now === null) return was !== now || before !== after;
  for (const key of new Set([...Object.keys(was), ...Object.keys(now)])) {
    if (JSON.stringify(was[key]) === JSON.stringify(now[key])) continue;
    if (hasOtherCondition(was[key]) || hasOtherCondition(now[key])) return true;
  }
  return false;
}

/** The `imports` object of a package.json's text ({} when it has none); null when the text is not JSON. */
function importsOf(text: string | null): Record<string, unknown> | null {
  try {
    const json = JSON.parse(text ?? '{}') as { imports?: unknown };
    return typeof json.imports === 'object' && json.imports !== null ? (json.imports as Record<string, unknown>) : {};
  } catch {
    return null;
  }
}

function hasOtherCondition(target: unknown): boolean {
  if (Array.isArray(target)) return target.some(hasOtherCondition);
  if (typeof target !== 'object' || target === null) return false;
  return Object.entries(target).some(([condition, value]) => !NODE_CONDITIONS.has(condition) || hasOtherCondition(value));
}
