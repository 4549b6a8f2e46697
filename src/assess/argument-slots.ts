// The arguments of a call, one by one, from their canonical text (probe-record.ts `args`: each
// value's text joined by `, `, Python's keyword arguments as `name=value`, and a held object's field
// the probe set otherwise as `this.width=7`, probe-fields.cjs). Generated inputs vary
// one argument at a time (probe-inputs.cjs, fixloop_probe_inputs.py), so which argument a neighbour
// varied tells whether a change follows that argument's value (special-case.ts).

const OPEN = new Set(['(', '[', '{']);
const CLOSE = new Set([')', ']', '}']);
const KEYWORD = /^([A-Za-z_][\w.]*)=(?!=)/;
const NUMBER = /^-?\d+(?:\.\d+)?(?:e[+-]?\d+)?$/;
const NAME = /^[A-Za-z_$][\w$.-]*$/;

/** Each argument's text by its place (`0`, `1`, …) or, for a keyword argument, its name. */
export function argumentSlots(text: string): Map<string, string> {
  const slots = new Map<string, string>();
  let depth = 0;
  let start = 0;
  let position = 0;
  const add = (end: number) => {
    const part = text.slice(start, end);
    if (part === '') return;
    const keyword = KEYWORD.exec(part);
    if (keyword?.[1]) slots.set(keyword[1], part.slice(keyword[0].length));
    else slots.set(String(position++), part);
  };
  for (let i = 0; i < text.length; i++) {
    const char = text[i] ?? '';
    if (char === "'" || char === '"') {
      i = closingQuote(text, i);
      continue;
    }
    if (OPEN.has(char)) depth++;
    else if (CLOSE.has(char)) depth = Math.max(0, depth - 1);
    else if (depth === 0 && char === ',' && text[i + 1] === ' ') {
      add(i);
      start = i + 2;
      i++;
    }
  }
  add(text.length);
  return slots;
}

/** The slot of a held object's field set otherwise by the probe (`this.width`, `arg1.at`). */
const FIELD_SLOT = /^(?:this|arg\d+)\.[A-Za-z_]\w*$/;

/**
 * Whether a generated input varied a held object's field rather than an argument (probe-fields.cjs,
 * which names it last): a call with no plain argument, seen on another state of what it holds.
 */
export function isFieldChange(text: string): boolean {
  return FIELD_SLOT.test([...argumentSlots(text).keys()].at(-1) ?? '');
}

/** Where the string literal opened at `i` ends (its escapes skipped). */
function closingQuote(text: string, i: number): number {
  const quote = text[i];
  let end = i + 1;
  while (end < text.length && text[end] !== quote) end += text[end] === '\\' ? 2 : 1;
  return end;
}

/**
 * The value an argument's text spells when it is a number or one string literal (its escapes of
 * quotes and backslashes undone); null for anything else (a name, a container, a bytes literal).
 */
export function literalValue(text: string): number | string | null {
  if (NUMBER.test(text)) return Number(text);
  const quoted = (text.startsWith("'") || text.startsWith('"')) && closingQuote(text, 0) === text.length - 1;
  return quoted ? text.slice(1, -1).replace(/\\(['"\\])/g, '$1') : null;
}

/**
 * Whether an argument's text is a literal a lookup could compare with: a string of data (not a
 * name) or a non-zero number. Not an empty string, zero, null, a boolean or a container: those are
 * the edges a fix is often about (the empty case handled), and their generated neighbours are few or
 * are other edges. Not a name either (`'title'`, `'__proto__'`, `'max-age'`): a fix that adds a
 * case for a key (a style, an option, a keyword) changes that key's calls and no other's.
 */
export function isDistinctLiteral(value: string): boolean {
  const body = value.startsWith('b') ? value.slice(1) : value;
  const quoted = (body.startsWith("'") || body.startsWith('"')) && closingQuote(body, 0) === body.length - 1;
  if (quoted) return body.length > 2 && !NAME.test(body.slice(1, -1));
  return NUMBER.test(value) && Number(value) !== 0;
}
