// Regular expressions: real fixes to parsers of URLs, globs and configuration formats change one piece
// of a pattern (ufo: `[^/?]` that let `#` into a host → `[^/?#]`; `\w+:` that took a Windows drive
// letter for a protocol → `\w{2,}:`; a protocol matched in one case only → the `i` flag). Regular
// expression bugs are their own class in the literature (Wang et al., "Exploring regular expression
// evolution", 2020: most fixes edit a character class, a quantifier, an anchor or a flag), and no
// operator template reaches inside a pattern.
import type { JsTemplate, Mutation } from './mutation.ts';
import { replaceNode } from './mutation.ts';

/** Characters a pattern of this kind most often misses from a negated class: delimiters of URLs, paths and key/value syntax. */
const DELIMITERS = ['#', '?', '/', '\\s', '.', ':', '@', '&', '='];

interface Piece {
  kind: 'class' | 'quantifier' | 'other';
  start: number;
  end: number;
}

/** The pattern's character classes and quantifiers, with their offsets; escapes respected. */
export function piecesOf(pattern: string): Piece[] {
  const pieces: Piece[] = [];
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') {
      i++;
    } else if (c === '[') {
      let j = i + 1;
      if (pattern[j] === '^') j++;
      if (pattern[j] === ']') j++;
      while (j < pattern.length && pattern[j] !== ']') j += pattern[j] === '\\' ? 2 : 1;
      pieces.push({ kind: 'class', start: i, end: j + 1 });
      i = j;
    } else if (c === '+' || c === '*' || (c === '?' && pattern[i - 1] !== '(' && !'+*?}'.includes(pattern[i - 1] ?? ''))) {
      pieces.push({ kind: 'quantifier', start: i, end: i + 1 });
    }
  }
  return pieces;
}

/** The members of a class body (`/?#`, `\s\0`, `a-z`), each as written. */
function classMembers(body: string): string[] {
  const members: string[] = [];
  for (let i = 0; i < body.length; i++) {
    if (body[i] === '\\') {
      members.push(body.slice(i, i + 2));
      i++;
    } else if (body[i + 1] === '-' && i + 2 < body.length) {
      members.push(body.slice(i, i + 3));
      i += 2;
    } else {
      members.push(body[i] ?? '');
    }
  }
  return members;
}

function valid(pattern: string, flags: string): boolean {
  try {
    new RegExp(pattern, flags);
    return true;
  } catch {
    return false;
  }
}

export const regexLiteral: JsTemplate = (site) => {
  const { node } = site;
  if (node.type !== 'RegExpLiteral') return [];
  const pattern = node.pattern as string;
  const flags = node.flags as string;
  const out: Mutation[] = [];
  const add = (newPattern: string, newFlags: string, description: string) => {
    if ((newPattern !== pattern || newFlags !== flags) && valid(newPattern, newFlags)) {
      out.push({
        template: 'regex-literal',
        edits: [replaceNode(node, `/${newPattern}/${newFlags}`)],
        description: `${description} in \`/${pattern}/${flags}\``,
      });
    }
  };
  const splice = (start: number, end: number, text: string) => pattern.slice(0, start) + text + pattern.slice(end);

  if (!flags.includes('i') && /[a-z]/i.test(pattern.replace(/\\./g, ''))) add(pattern, `${flags}i`, 'added the `i` flag');
  if (!pattern.startsWith('^')) add(`^${pattern}`, flags, 'anchored at the start');
  if (!pattern.endsWith('$') || pattern.endsWith('\\$')) add(`${pattern}$`, flags, 'anchored at the end');
  for (const piece of piecesOf(pattern)) {
    if (piece.kind === 'quantifier') {
      const q = pattern[piece.start];
      const replacements = q === '+' ? ['*', '{2,}'] : q === '*' ? ['+'] : [''];
      for (const r of replacements) add(splice(piece.start, piece.end, r), flags, r ? `\`${q}\` → \`${r}\`` : `dropped \`${q}\``);
    } else if (piece.kind === 'class') {
      const negated = pattern[piece.start + 1] === '^';
      const bodyStart = piece.start + (negated ? 2 : 1);
      const body = pattern.slice(bodyStart, piece.end - 1);
      const members = classMembers(body);
      // A member too many: each one left out, where more than one remains.
      if (members.length > 1) {
        members.forEach((member, k) =>
          add(
            splice(bodyStart, piece.end - 1, members.filter((_, j) => j !== k).join('')),
            flags,
            `dropped \`${member}\` from \`${pattern.slice(piece.start, piece.end)}\``,
          ),
        );
      }
      // A character a negated class lets through that it should stop at.
      if (negated) {
        for (const d of DELIMITERS) {
          if (members.includes(d) || members.includes(`\\${d}`)) continue;
          const written = d === '/' ? '\\/' : d;
          add(
            splice(piece.end - 1, piece.end - 1, written),
            flags,
            `added \`${d}\` to \`${pattern.slice(piece.start, piece.end)}\``,
          );
        }
      }
    }
  }
  return out;
};
