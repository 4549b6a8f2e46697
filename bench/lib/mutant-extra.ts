// Mutations the repair templates do not make, because no repair would: a changed condition replaced
// by a constant, a fallback (`?? x`, `|| x`, `or x`) dropped, or one added where a value is returned
// or assigned. A wrong patch a person writes often looks like that (a check short-circuited, a
// default that hides an `undefined`), so the mutants that measure the assessment need them too.
// Text-level, one line at a time, for JavaScript/TypeScript and Python alike.
import type { TextEdit } from '../../src/engines/repair/candidate.ts';

export interface ExtraMutation {
  kind: 'condition-constant' | 'default-dropped' | 'default-added';
  line: number;
  edits: TextEdit[];
  description: string;
}

const JS_OPERAND = String.raw`(?:'[^']*'|"[^"]*"|\x60[^\x60]*\x60|\[\]|\{\}|-?\d+(?:\.\d+)?|[A-Za-z_$][\w$.]*)`;
const PY_OPERAND = String.raw`(?:'[^']*'|"[^"]*"|\[\]|\{\}|\(\)|-?\d+(?:\.\d+)?|[A-Za-z_][\w.]*)`;
const JS_DEFAULT = new RegExp(String.raw`\s*(?:\?\?|\|\|)\s*${JS_OPERAND}(?=\s*[;,)\]}]|\s*$)`, 'g');
const PY_DEFAULT = new RegExp(String.raw`\s+or\s+${PY_OPERAND}(?=\s*[:,)\]}]|\s*$)`, 'g');

/** Where the parenthesized condition after `if` that opens at `open` closes, or -1. */
function closingParen(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === '(') depth++;
    else if (text[i] === ')' && --depth === 0) return i;
  }
  return -1;
}

function conditionEdits(text: string, python: boolean): Array<{ start: number; end: number; condition: string }> {
  if (python) {
    const m = /^(\s*(?:el)?if\s+)(.+?)(\s*:\s*(?:#.*)?)$/.exec(text);
    return m?.[1] && m[2] ? [{ start: m[1].length, end: m[1].length + m[2].length, condition: m[2] }] : [];
  }
  const out: Array<{ start: number; end: number; condition: string }> = [];
  for (const m of text.matchAll(/\b(?:if|while)\s*\(/g)) {
    const open = (m.index ?? 0) + m[0].length - 1;
    const close = closingParen(text, open);
    if (close > open + 1) out.push({ start: open + 1, end: close, condition: text.slice(open + 1, close) });
  }
  return out;
}

/** The extra mutations of `lines` (1-based) of `source`; `python` picks the language's spelling. */
export function extraMutations(source: string, lines: readonly number[], python: boolean): ExtraMutation[] {
  const starts = [0];
  for (let i = source.indexOf('\n'); i >= 0; i = source.indexOf('\n', i + 1)) starts.push(i + 1);
  const out: ExtraMutation[] = [];
  for (const line of lines) {
    const at = starts[line - 1];
    if (at === undefined) continue;
    const end = source.indexOf('\n', at);
    const text = source.slice(at, end < 0 ? source.length : end);
    if (/^\s*(\/\/|#|\*)/.test(text)) continue;
    for (const c of conditionEdits(text, python)) {
      for (const constant of python ? ['True', 'False'] : ['true', 'false']) {
        // `while (true)` never ends: only `false` for a loop.
        if (!python && /\bwhile\s*\($/.test(text.slice(0, c.start)) && constant === 'true') continue;
        out.push({
          kind: 'condition-constant',
          line,
          edits: [{ start: at + c.start, end: at + c.end, text: constant }],
          description: `condition \`${c.condition.trim()}\` → \`${constant}\``,
        });
      }
    }
    for (const m of text.matchAll(python ? PY_DEFAULT : JS_DEFAULT)) {
      const start = at + (m.index ?? 0);
      out.push({
        kind: 'default-dropped',
        line,
        edits: [{ start, end: start + m[0].length, text: '' }],
        description: `fallback \`${m[0].trim()}\` dropped`,
      });
    }
    const value = python
      ? /^(\s*(?:return\s+|[A-Za-z_][\w.]*\s*=\s*))(.+?)(\s*(?:#.*)?)$/.exec(text)
      : /^(\s*(?:return\s+|(?:(?:const|let|var)\s+)?[A-Za-z_$][\w$.]*\s*=\s*))([^;]+?)(\s*;?\s*(?:\/\/.*)?)$/.exec(text);
    // Not a comparison (`a == b`), not an expression that goes on past the line, and not a value
    // that is never missing (a literal, one with a fallback already): the mutant would change nothing.
    if (
      value?.[1] &&
      value[2] &&
      !value[2].startsWith('=') &&
      !/[{([,]$/.test(value[2]) &&
      !/^(?:[rbuf]?['"`]|\/|-?\d)/.test(value[2]) &&
      !new RegExp(python ? PY_DEFAULT.source : JS_DEFAULT.source).test(value[2])
    ) {
      const start = at + value[1].length;
      const added = python ? `(${value[2]}) or None` : `(${value[2]}) ?? null`;
      out.push({
        kind: 'default-added',
        line,
        edits: [{ start, end: start + value[2].length, text: added }],
        description: `fallback added: \`${added}\``,
      });
    }
  }
  return out;
}
