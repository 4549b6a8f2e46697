// The benchmarks' command-line arguments: `--name value` flags and bare switches.
export const args = process.argv.slice(2);

/** The value after `--name`, or undefined. */
export function flag(name: string): string | undefined {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
}
