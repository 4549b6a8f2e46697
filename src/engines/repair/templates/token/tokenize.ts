// A small tokenizer for C-like languages: enough to find operators, integer literals and names on a
// line while skipping strings, characters and comments.
export interface Token {
  kind: 'op' | 'number' | 'name' | 'punct';
  text: string;
  start: number;
  end: number;
  line: number;
}

const OPERATORS = [
  '>>>=',
  '<<=',
  '>>=',
  '>>>',
  '===',
  '!==',
  '&&',
  '||',
  '==',
  '!=',
  '<=',
  '>=',
  '<<',
  '>>',
  '+=',
  '-=',
  '*=',
  '/=',
  '++',
  '--',
  '->',
  '::',
  '<',
  '>',
  '+',
  '-',
  '*',
  '/',
  '%',
  '&',
  '|',
  '^',
  '!',
  '=',
  '?',
  ':',
];

export function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let line = 1;
  let i = 0;
  while (i < source.length) {
    const c = source[i] ?? '';
    if (c === '\n') {
      line++;
      i++;
    } else if (/\s/.test(c)) {
      i++;
    } else if (
      source.startsWith('//', i) ||
      (c === '#' && /^#\s*(include|define|if|endif|pragma)/.test(source.slice(i, i + 12)))
    ) {
      while (i < source.length && source[i] !== '\n') i++;
    } else if (source.startsWith('/*', i)) {
      const end = source.indexOf('*/', i + 2);
      const stop = end === -1 ? source.length : end + 2;
      for (let k = i; k < stop; k++) if (source[k] === '\n') line++;
      i = stop;
    } else if (c === '"' || c === "'" || c === '`') {
      let k = i + 1;
      while (k < source.length && source[k] !== c) {
        if (source[k] === '\\') k++;
        if (source[k] === '\n') line++;
        k++;
      }
      i = k + 1;
    } else if (/[0-9]/.test(c)) {
      const m = /^(0[xX][0-9a-fA-F_]+|[0-9][0-9_]*(\.[0-9_]+)?([eE][+-]?[0-9]+)?)[uUlLfFdD]*/.exec(source.slice(i));
      const text = m?.[0] ?? c;
      tokens.push({ kind: 'number', text, start: i, end: i + text.length, line });
      i += text.length;
    } else if (/[A-Za-z_$]/.test(c)) {
      const text = /^[A-Za-z_$][A-Za-z0-9_$]*/.exec(source.slice(i))?.[0] ?? c;
      tokens.push({ kind: 'name', text, start: i, end: i + text.length, line });
      i += text.length;
    } else {
      const op = OPERATORS.find((o) => source.startsWith(o, i));
      const text = op ?? c;
      tokens.push({ kind: op ? 'op' : 'punct', text, start: i, end: i + text.length, line });
      i += text.length;
    }
  }
  return tokens;
}
