// Untrusted code must not inherit fixloop's open files (docs/design.md §3.1.1): Node marks every file it
// opens close-on-exec, but a descriptor fixloop itself inherited from whoever started it (a shell's
// `3>file`, a supervisor's socket) is not, and would reach every command of every backend, through
// bwrap too. They are closed once, before the first command, in fixloop's own process: fixloop never
// uses them. Node's IPC channel to its parent (NODE_CHANNEL_FD) is kept.
import { closeSync, readdirSync, readFileSync } from 'node:fs';

const O_CLOEXEC = 0o2000000;
let closed = false;

/** The descriptors above 2 that a child would inherit (Linux: /proc/self/fdinfo). */
export function inheritedDescriptors(): number[] {
  let names: string[];
  try {
    names = readdirSync('/proc/self/fd');
  } catch {
    return []; // no /proc (macOS): nothing to inspect
  }
  const channel = Number(process.env.NODE_CHANNEL_FD ?? -1);
  const inherited: number[] = [];
  for (const name of names) {
    const fd = Number(name);
    if (!Number.isInteger(fd) || fd <= 2 || fd === channel) continue;
    const flags = /flags:\s+([0-7]+)/.exec(readFdInfo(fd))?.[1];
    if (flags !== undefined && (parseInt(flags, 8) & O_CLOEXEC) === 0) inherited.push(fd);
  }
  return inherited;
}

function readFdInfo(fd: number): string {
  try {
    return readFileSync(`/proc/self/fdinfo/${fd}`, 'utf8');
  } catch {
    return ''; // closed meanwhile (readdir's own descriptor)
  }
}

/** Closes the inherited descriptors, once per process. */
export function closeInheritedDescriptors(): void {
  if (closed) return;
  closed = true;
  for (const fd of inheritedDescriptors()) {
    try {
      closeSync(fd);
    } catch {
      // already gone
    }
  }
}
