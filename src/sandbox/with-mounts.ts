// A sandbox that also mounts some of fixloop's folders for every command it runs: a run's saved
// dependency trees, which its checkouts (workspace, forks, replay) link instead of copying.
import type { Mount, Sandbox } from './sandbox.ts';

/**
 * Whether the backend shows a command only what it mounts, read-only unless told otherwise. The
 * `process` backend shows everything writable: linking a shared folder there would let the
 * repository's code write it.
 */
export function enforcesReadOnlyMounts(sandbox: Sandbox): boolean {
  return sandbox.backend !== 'process';
}

/** `mounts` is asked at each command: the folders it names may appear during the run. */
export function withMounts(sandbox: Sandbox, mounts: () => Mount[]): Sandbox {
  return {
    backend: sandbox.backend,
    ...(sandbox.describe ? { describe: sandbox.describe.bind(sandbox) } : {}),
    // After the caller's own mounts, so that a path inside a writable one (the trees inside the
    // repository's cache folder, which its setup writes) stays read-only.
    run: (options) => sandbox.run({ ...options, mounts: [...(options.mounts ?? []), ...mounts()] }),
  };
}
