#!/usr/bin/env node
// fixloop's command-line entry. The sources are TypeScript run directly by Node 24
// (type stripping); the project brings Node 24 itself as a dev dependency, and an older Node that
// starts this file (a global install, npx --prefix, a path from another folder) hands over to it.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import nodeModule from 'node:module';
import { constants, homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

// npm (`npx fixloop serve`, `npm start`) runs fixloop through a shell and passes a signal to that
// shell only: the shell dies and fixloop would run on, reparented. So, under npm and in the child
// of the hand-over below, the parent's end is taken for the SIGTERM it stands for.
if (process.env.npm_command || process.env.FIXLOOP_HANDED_OVER) stopWithParent();
delete process.env.FIXLOOP_HANDED_OVER;

const [major] = process.versions.node.split('.').map(Number);
if (major < 24) {
  const own = fileURLToPath(new URL('../node_modules/node/bin/node', import.meta.url));
  if (!existsSync(own)) {
    console.error(
      `fixloop needs Node.js 24 or newer (this is ${process.version}), and its own Node 24 is not installed beside it: run \`npm ci\` in fixloop's folder, or install Node 24.`,
    );
    process.exit(3);
  }
  const child = spawn(own, [fileURLToPath(import.meta.url), ...process.argv.slice(2)], {
    stdio: 'inherit',
    env: { ...process.env, FIXLOOP_HANDED_OVER: '1' },
  });
  // A signal sent to this process alone is passed on. Ctrl-C reaches the whole foreground group, the
  // child too, so it gets that one twice, a moment apart: it takes the copy for the same press
  // (src/cli/cancel-signals.ts).
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => {
    // As a shell reports a child ended by a signal: 128 + its number.
    process.exitCode = code ?? 128 + (constants.signals[signal] ?? 0);
  });
} else {
  enableOwnCompileCache();
  // Installed from a tarball or git, fixloop lives under node_modules, where Node strips no types:
  // there the build's JavaScript (dist/, made by `prepare`) runs; in a checkout, the sources.
  const installed = fileURLToPath(import.meta.url)
    .split(/[\\/]/)
    .includes('node_modules');
  const built = new URL('../dist/cli.js', import.meta.url);
  const { main } = installed && existsSync(fileURLToPath(built)) ? await import(built.href) : await import('../src/cli.ts');
  process.exitCode = await main(process.argv.slice(2));
}

/**
 * Node keeps what it compiled of fixloop (its TypeScript included) on disk, checked against each
 * file's content: every start after the first loads in about half the CPU time. The cache lives in
 * fixloop's own cache folder, beside the folders repositories' commands may write, never in one of
 * them nor in a /tmp folder another user could fill first. NODE_COMPILE_CACHE and
 * NODE_DISABLE_COMPILE_CACHE decide as Node documents; a folder that cannot be written is no error.
 * (The cache root is the command line's, as `cacheRootFrom` in src/core/data-dir.ts has
 * it: this runs before any of fixloop's sources are loaded, which the cache is for.)
 */
function enableOwnCompileCache() {
  if (process.env.NODE_DISABLE_COMPILE_CACHE) return;
  const root = process.env.FIXLOOP_CACHE_DIR || join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'fixloop');
  nodeModule.enableCompileCache?.(process.env.NODE_COMPILE_CACHE || join(root, 'node-compile-cache'));
}

/** SIGTERM to this process once its parent is gone (polled: no event says so). */
function stopWithParent() {
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(timer);
    process.kill(process.pid, 'SIGTERM');
  }, 500);
  timer.unref();
}
