// Files the harness names, whatever their own names (docs/design.md §3.2.2): what the test command
// loads before any test (`node --env-file=.env.test`, `--require ./setup.js`, `--import`), and what a
// runner's configuration names in its setup keys (jest's `setupFiles: ['<rootDir>/src/polyfills.js']`).
// A fix put there is in the tests' run and nowhere else: a user's program never loads it that way.
// Read in the pristine checkout, before the patch: a file the patch names anew changes the
// configuration or the command itself, which is protected already.
import { readFile, stat } from 'node:fs/promises';
import { posix } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { RUNNERS } from '../runners/registry.ts';
import { packageScriptCall, scriptsOfPackageJson } from '../runners/package-scripts.ts';
import { plainGit } from '../workspace/plain-git.ts';

/** Options of node, the runners and their launchers whose value is a file loaded before the tests. */
const LOADING_OPTIONS = new Set([
  '-r',
  '--require',
  '--import',
  '--loader',
  '--experimental-loader',
  '--env-file',
  '--env-file-if-exists',
  '--file',
  '--setupFiles',
  '--setup-files',
  '--globalSetup',
]);
/** How a module name without its extension is found (node's and the bundlers' resolution, in short). */
const EXTENSIONS = ['', '.js', '.cjs', '.mjs', '.ts', '.cts', '.mts', '.jsx', '.tsx', '/index.js', '/index.ts'];
/** Configuration files read as data; the rest (JavaScript, TypeScript) are read by their text. */
const DATA_FILE = /\.(json|ya?ml)$|(^|\/)\.mocharc$/;
const LARGEST_CONFIG = 256 * 1024;

/** Each runner's setup keys, with the package.json keys and the files its settings live in. */
const SETUP_KEYED = RUNNERS.flatMap((r) =>
  r.configuration.setupKeys?.length
    ? [{ keys: r.configuration.setupKeys, packageKeys: r.configuration.packageKeys, files: r.configuration.files }]
    : [],
);

/** The checkout's files the harness names (relative path → why), in the pristine checkout `dir`. */
export async function harnessNamedFiles(dir: string, testCommand: string): Promise<Map<string, string>> {
  const named = new Map<string, string>();
  const packageText = await readFile(posix.join(dir, 'package.json'), 'utf8').catch(() => null);
  for (const text of commandTexts(testCommand, scriptsOfPackageJson(packageText)))
    for (const value of optionValues(text))
      await nameFile(dir, '.', value, named, `the test command loads it before the tests (\`${value}\`)`);
  for (const { key, value, from } of await configuredValues(dir, packageText))
    await nameFile(
      dir,
      posix.dirname(from),
      value,
      named,
      `\`${from}\` names it in \`${key}\`: the runner loads it before the tests`,
    );
  return named;
}

/** The test command and every package script it reaches, through `npm run x`, `pnpm x` and the like. */
export function commandTexts(command: string, scripts: Readonly<Record<string, string>>): string[] {
  const texts = [command];
  const seen = new Set<string>();
  // Each script is read once (`seen`), so the list ends however the scripts call each other.
  for (let i = 0; i < texts.length; i++)
    for (const part of (texts[i] ?? '').split(/&&|\|\||;|\|/)) {
      const call = packageScriptCall(part);
      if (!call || seen.has(call.name)) continue;
      seen.add(call.name);
      for (const name of [`pre${call.name}`, call.name]) if (scripts[name] !== undefined) texts.push(scripts[name]);
    }
  return texts;
}

/** The values of the loading options in a command's text (`--env-file=.env.test`, `-r ./setup`, `NODE_OPTIONS="--import x"`). */
export function optionValues(text: string): string[] {
  const tokens = text.split(/[\s"'=]+/).filter((t) => t !== '');
  return tokens.flatMap((token, i) => {
    const next = tokens[i + 1];
    return LOADING_OPTIONS.has(token) && next !== undefined && !next.startsWith('-') ? [next] : [];
  });
}

interface Configured {
  key: string;
  value: string;
  /** The file that names it, relative. */
  from: string;
}

async function configuredValues(dir: string, packageText: string | null): Promise<Configured[]> {
  const found: Configured[] = [];
  const packageJson = parseJson(packageText);
  for (const runner of SETUP_KEYED) {
    for (const packageKey of runner.packageKeys) {
      const settings = packageJson?.[packageKey];
      if (!settings || typeof settings !== 'object') continue;
      for (const key of runner.keys)
        for (const value of stringsIn((settings as Record<string, unknown>)[key]))
          found.push({ key, value, from: 'package.json' });
    }
  }
  const listed = (await plainGit(dir, ['ls-files', '-z']).catch(() => '')).split('\0').filter((p) => p !== '');
  for (const runner of SETUP_KEYED)
    for (const from of listed.filter((path) => runner.files.some(([pattern]) => pattern.test(path)))) {
      const text = await readSmall(posix.join(dir, from));
      if (text === null) continue;
      for (const key of runner.keys) for (const value of keyedValues(from, text, key)) found.push({ key, value, from });
    }
  return found;
}

/** The strings a configuration's `key` holds: parsed for data files, read from the text for code. */
export function keyedValues(path: string, text: string, key: string): string[] {
  if (DATA_FILE.test(path)) {
    try {
      const data = parseYaml(text) as unknown;
      return data && typeof data === 'object' ? stringsIn((data as Record<string, unknown>)[key]) : [];
    } catch {
      // Not data after all: read as text below.
    }
  }
  const values: string[] = [];
  const at = new RegExp(`(?<![\\w$.])["']?${key}["']?\\s*:\\s*`, 'g');
  for (const match of text.matchAll(at)) {
    const start = match.index + match[0].length;
    values.push(...literalsIn(valueText(text, start)));
  }
  return values;
}

/** The text of the value that starts at `start`: a bracketed list up to its end, or one string literal. */
function valueText(text: string, start: number): string {
  const first = text[start];
  if (first === '"' || first === "'" || first === '`') {
    const end = text.indexOf(first, start + 1);
    return end < 0 ? '' : text.slice(start, end + 1);
  }
  if (first !== '[') return '';
  let depth = 0;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (c === '"' || c === "'" || c === '`') {
      const end = text.indexOf(c, i + 1);
      if (end < 0) return '';
      i = end;
    } else if (c === '[') depth++;
    else if (c === ']' && --depth === 0) return text.slice(start, i + 1);
  }
  return '';
}

function literalsIn(text: string): string[] {
  return [...text.matchAll(/(["'`])((?:(?!\1)[^\\\n$]|\\.)*)\1/g)].map((m) => m[2] ?? '');
}

function stringsIn(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  return Array.isArray(value) ? value.flatMap(stringsIn) : [];
}

function parseJson(text: string | null): Record<string, unknown> | null {
  try {
    const value = JSON.parse(text ?? '') as unknown;
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** Records `value` as a file of the checkout when it is one (relative to `base`, or to the root). */
async function nameFile(dir: string, base: string, value: string, named: Map<string, string>, why: string): Promise<void> {
  const cleaned = value.replace(/^<rootDir>\/?/, '').replace(/^file:\/\//, '');
  if (cleaned === '' || posix.isAbsolute(cleaned) || /(^|\/)node_modules\//.test(cleaned)) return;
  for (const from of new Set([base, '.']))
    for (const extension of EXTENSIONS) {
      const path = posix.normalize(posix.join(from, cleaned + extension));
      if (path.startsWith('..')) continue;
      if (named.has(path)) return;
      if (await isFile(posix.join(dir, path))) {
        named.set(path, why);
        return;
      }
    }
}

async function isFile(path: string): Promise<boolean> {
  return stat(path).then(
    (s) => s.isFile(),
    () => false,
  );
}

async function readSmall(path: string): Promise<string | null> {
  try {
    return (await stat(path)).size <= LARGEST_CONFIG ? await readFile(path, 'utf8') : null;
  } catch {
    return null;
  }
}
