// Whether an npm package builds what it ships when it is packed: a `prepack` or `prepare` script, and
// an entry point (`main`, `module`, an `exports` target) that the checkout does not hold. Such a
// package's users get what the build makes, not the sources the tests load, so the look from outside
// the runner packs it with its scripts on and calls the built copy (unshipped-files.ts). A package
// whose entry points are all there is packed with its scripts off: a `prepare` that installs git
// hooks is none of the look's business.
import { access } from 'node:fs/promises';
import { join } from 'node:path';

export async function buildsOnPack(dir: string, manifest: Record<string, unknown>): Promise<boolean> {
  const scripts = manifest['scripts'];
  const hooks = typeof scripts === 'object' && scripts !== null ? (scripts as Record<string, unknown>) : {};
  if (typeof hooks['prepack'] !== 'string' && typeof hooks['prepare'] !== 'string') return false;
  for (const entry of entryPoints(manifest)) {
    const there = await access(join(dir, entry)).then(
      () => true,
      () => false,
    );
    if (!there) return true;
  }
  return false;
}

/** The files `main`, `module` and `exports` name (relative, without `./`); a pattern's are left out. */
export function entryPoints(manifest: Record<string, unknown>): string[] {
  const found = new Set<string>();
  const add = (target: unknown): void => {
    if (typeof target === 'string') {
      if (target.startsWith('./') && !target.includes('*')) found.add(target.slice(2));
    } else if (Array.isArray(target)) target.forEach(add);
    else if (typeof target === 'object' && target !== null) Object.values(target).forEach(add);
  };
  for (const key of ['main', 'module'] as const) {
    const value = manifest[key];
    if (typeof value === 'string') add(value.startsWith('./') ? value : `./${value}`);
  }
  add(manifest['exports']);
  return [...found];
}
