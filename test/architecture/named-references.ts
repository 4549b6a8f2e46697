// What the tree's prose names: the paths, the Markdown links and the sections of docs/design.md that
// a Markdown file or a source comment points a reader at. architecture-doc.test.ts requires each one
// to exist; this file only finds them.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, extname, join, normalize } from 'node:path';
import ts from 'typescript';

/** The tree's top folders: a path that starts with one of them names a file of fixloop. */
const PATH = /(?<![\w./-])((?:src|test|bench|docs|scripts|schema|examples)\/[\w./<>*-]*[\w/>*-])/g;

/** A section of the design: `§3.2.7`, `§ 1.6`, a range `§3.2.2–3` (both ends are sections). */
const CITATION = /§ ?(\d+(?:\.\d+)*)(?:[–-](\d+))?/g;

/** `[text](target)`: the target up to a space (a title) or the closing parenthesis. */
const LINK = /\]\(([^)\s]+)(?:\s[^)]*)?\)/g;

/** A heading that numbers a section of the design: `## 3. Security`, `#### 3.2.7 Eyes inside`. */
const NUMBERED_HEADING = /^#{1,6}\s+(\d+(?:\.\d+)*)\.?\s/gm;

export function namedPaths(text: string): string[] {
  return [...new Set([...text.matchAll(PATH)].map((m) => m[1]!))];
}

/**
 * Whether a named path leads somewhere. A path with a placeholder (`src/runners/<runner>/`) must lead
 * to an existing folder up to the placeholder, where some entry has the fixed start before it
 * (`src/triggers/on-<event>.ts`); a wildcard stands for at least one entry.
 */
export function leadsSomewhere(path: string, root = '.'): boolean {
  const placeholder = path.search(/[<*]/);
  if (placeholder === -1) return existsSync(join(root, path)) || existsSync(join(root, path.replace(/\/$/, '')));
  const folder = path.slice(0, placeholder).replace(/\/[^/]*$/, '') || '.';
  if (!existsSync(join(root, folder))) return false;
  const start = path.slice(folder.length + 1, placeholder);
  return readdirSync(join(root, folder)).some((name) => name.startsWith(start));
}

/**
 * A file directly in src/ or test/ that fixloop does not have (`src/math.js`, `test/a.test.js`) is a
 * repository's layout given as an example: fixloop keeps nothing directly in test/, and in src/ only
 * its entry points, which do exist. Anywhere deeper, or in the other top folders, a path is fixloop's.
 */
export function isRepositoryExample(path: string): boolean {
  return /^(src|test)\/[^/<*]+$/.test(path);
}

/** The relative targets of a Markdown file's links (no URL, no anchor of the same page), without their `#anchor`. */
export function relativeLinks(markdown: string): string[] {
  const targets = [...markdown.matchAll(LINK)].map((m) => m[1]!);
  return targets.filter((t) => !/^([a-z][a-z+.-]*:|#)/i.test(t)).map((t) => t.replace(/#.*$/, ''));
}

/** Whether a link target resolves from the folder of the file that holds it. */
export function linkResolves(file: string, target: string, root = '.'): boolean {
  return existsSync(join(root, normalize(join(dirname(file), decodeURIComponent(target)))));
}

/** Every section number cited: `§3.2.2–3` cites 3.2.2 and 3.2.3. */
export function citedSections(text: string): string[] {
  const cited = [...text.matchAll(CITATION)].flatMap((m) => {
    const first = m[1]!;
    if (m[2] === undefined) return [first];
    const prefix = first.replace(/\d+$/, '');
    const from = Number(first.slice(prefix.length));
    const to = Number(m[2]);
    return Array.from({ length: Math.max(1, to - from + 1) }, (_, i) => `${prefix}${from + i}`);
  });
  return [...new Set(cited)];
}

/** The numbered sections of a design document, from its headings. */
export function designSections(markdown: string): Set<string> {
  return new Set([...markdown.matchAll(NUMBERED_HEADING)].map((m) => m[1]!));
}

/** The comments of a source file, as one text: JavaScript and TypeScript by their scanner, Python and shell by hand. */
export function commentsOf(file: string, text: string): string {
  const ext = extname(file);
  if (['.ts', '.js', '.cjs', '.mjs'].includes(ext)) return scriptComments(text);
  if (ext === '.py') return pythonComments(text);
  if (ext === '.sh')
    return text
      .split('\n')
      .flatMap((line) => /(?:^|\s)#(?!!)(.*)$/.exec(line)?.[1] ?? [])
      .join('\n');
  return '';
}

function scriptComments(text: string): string {
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, false, ts.LanguageVariant.Standard, text);
  const comments: string[] = [];
  for (let kind = scanner.scan(); kind !== ts.SyntaxKind.EndOfFileToken; kind = scanner.scan()) {
    if (kind === ts.SyntaxKind.SingleLineCommentTrivia || kind === ts.SyntaxKind.MultiLineCommentTrivia) {
      comments.push(scanner.getTokenText());
    }
  }
  return comments.join('\n');
}

/** `#` comments and triple-quoted strings (the docstrings), outside other string literals. */
function pythonComments(text: string): string {
  const comments: string[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (c === '#') {
      const end = text.indexOf('\n', i);
      comments.push(text.slice(i + 1, end === -1 ? text.length : end));
      i = end === -1 ? text.length : end;
    } else if (c === '"' || c === "'") {
      const triple = text.startsWith(c.repeat(3), i);
      const quote = triple ? c.repeat(3) : c;
      let j = i + quote.length;
      while (j < text.length && !text.startsWith(quote, j) && (triple || text[j] !== '\n')) j += text[j] === '\\' ? 2 : 1;
      if (triple) comments.push(text.slice(i + 3, j));
      i = j + quote.length;
    } else {
      i++;
    }
  }
  return comments.join('\n');
}

/** Files under `folder` (recursively) whose path passes `keep`, relative to the working directory. */
export function filesUnder(folder: string, keep: (path: string) => boolean): string[] {
  if (!existsSync(folder)) return [];
  return readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .map((name) => join(folder, name))
    .filter((path) => !path.includes('node_modules') && statSync(path).isFile() && keep(path))
    .sort();
}

export function readText(path: string): string {
  return readFileSync(path, 'utf8');
}
