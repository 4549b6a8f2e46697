// Which of node's own options take no value, so that a word written after one of them is a
// positional argument (a test file or glob) and not that option's value (`--import tsx`).
// Unsure is a value: an option missing here keeps the word after it with it.

/** node's options that take no value. */
const FLAGS = new Set([
  '--test',
  '--test-only',
  '--test-force-exit',
  '--test-update-snapshots',
  '--watch',
  '--experimental-test-coverage',
  '--experimental-test-module-mocks',
  '--experimental-test-snapshots',
  '--experimental-strip-types',
  '--experimental-transform-types',
  '--experimental-vm-modules',
  '--experimental-require-module',
  '--experimental-detect-module',
  '--enable-source-maps',
  '--preserve-symlinks',
  '--no-warnings',
  '--no-deprecation',
  '--trace-warnings',
  '--trace-uncaught',
  '--expose-gc',
]);

/** Whether node reads `option` (a word that starts with `-`) without a value after it. */
export function isNodeFlag(option: string): boolean {
  // `--name=value` holds its value; `--no-…` only turns something off.
  return option.includes('=') || option.startsWith('--no-') || FLAGS.has(option);
}
