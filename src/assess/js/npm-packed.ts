// What an npm package ships, as npm itself says (its `files` list, .npmignore, the files it always
// adds): `npm pack --dry-run`, run in the tests' sandbox as the operator's npm, with the package's
// scripts off, unless the package builds what it ships when packed (npm-build.ts): then npm runs its
// `prepack` (and `prepare`) as a publish would, and the built files are there to be called. An
// application (a package.json marked private) is not published: its checkout is what runs.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ShippedFiles } from '../probe-language.ts';
import { shellQuote } from '../../sandbox/shell-quote.ts';
import { parseJs } from '../../core/js-tree.ts';
import { namedFunctions } from './probe-functions.ts';
import { buildsOnPack } from './npm-build.ts';

/** A build's output, by the folders JavaScript builds write to (js-language.ts's `generated` too). */
const BUILT = /(^|\/)(dist|build)\//;

export const npmPacked: ShippedFiles = {
  async published(dir) {
    const manifest = await manifestOf(dir);
    return manifest !== null && manifest['private'] !== true;
  },
  async builds(dir) {
    const manifest = await manifestOf(dir);
    return manifest !== null && (await buildsOnPack(dir, manifest));
  },
  files: [],
  // To a file, not the output: npm's notices go to stderr, and a large package's list would pass the
  // output's cap. A build's own output goes to the file too, before npm's JSON (filesOf skips it).
  command: ({ list, build }) => `npm pack --dry-run --json${build ? '' : ' --ignore-scripts'} > ${shellQuote(list)} 2>/dev/null`,
  paths: filesOf,
  definedFunctions(path, source) {
    if (!/\.[cm]?[jt]sx?$/.test(path)) return null;
    const program = parseJs(path, source);
    if (!program) return null;
    const functions = namedFunctions(program).map((fn) => ({
      name: fn.qualifiedName,
      text: source.slice(fn.node.start, fn.node.end),
    }));
    return { built: BUILT.test(path), functions };
  },
};

export async function manifestOf(dir: string): Promise<Record<string, unknown> | null> {
  const text = await readFile(join(dir, 'package.json'), 'utf8').catch(() => null);
  try {
    const parsed = JSON.parse(text ?? 'null') as unknown;
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** The paths of `npm pack --json`'s one entry (after what a build printed), or null when the text is not that. */
export function filesOf(text: string): Set<string> | null {
  try {
    // npm's JSON begins at a line of its own; anything before it is the build's (0: none found).
    const entries = JSON.parse(text.slice(text.startsWith('[') ? 0 : text.indexOf('\n[') + 1)) as unknown;
    const files = Array.isArray(entries) ? (entries[0] as { files?: unknown } | undefined)?.files : undefined;
    if (!Array.isArray(files)) return null;
    const paths = files
      .map((file) => (file as { path?: unknown }).path)
      .filter((path): path is string => typeof path === 'string');
    return new Set(paths.map((path) => path.replace(/^\.\//, '')));
  } catch {
    return null;
  }
}
