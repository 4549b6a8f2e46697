// Token-level candidates for C-like languages without a parser here (C, C++, Java, Go, Rust, C#, ...):
// operator replacement, integer ±1, true↔false, min↔max, swapped two-argument calls.
import { applyEdits, type Candidate, type CandidateGenerator, type TemplateId } from '../../candidate.ts';
import { tokenize, type Token } from './tokenize.ts';

const SWAPS: Record<string, { to: string[]; template: TemplateId }> = {
  '<': { to: ['<=', '>', '>='], template: 'relational-operator' },
  '<=': { to: ['<', '>=', '>'], template: 'relational-operator' },
  '>': { to: ['>=', '<', '<='], template: 'relational-operator' },
  '>=': { to: ['>', '<=', '<'], template: 'relational-operator' },
  '==': { to: ['!='], template: 'equality-operator' },
  '!=': { to: ['=='], template: 'equality-operator' },
  '&&': { to: ['||'], template: 'logical-operator' },
  '||': { to: ['&&'], template: 'logical-operator' },
  '+': { to: ['-'], template: 'arithmetic-operator' },
  '-': { to: ['+'], template: 'arithmetic-operator' },
  '*': { to: ['/'], template: 'arithmetic-operator' },
  '/': { to: ['*', '%'], template: 'arithmetic-operator' },
  '%': { to: ['/'], template: 'arithmetic-operator' },
  '+=': { to: ['-='], template: 'arithmetic-operator' },
  '-=': { to: ['+='], template: 'arithmetic-operator' },
  '++': { to: ['--'], template: 'arithmetic-operator' },
  '--': { to: ['++'], template: 'arithmetic-operator' },
  true: { to: ['false'], template: 'change-return-value' },
  false: { to: ['true'], template: 'change-return-value' },
  min: { to: ['max'], template: 'min-max' },
  max: { to: ['min'], template: 'min-max' },
  Min: { to: ['Max'], template: 'min-max' },
  Max: { to: ['Min'], template: 'min-max' },
};

/** `<` and `>` are also brackets of generics and templates: only treat them as operators between values. */
function isComparison(tokens: Token[], i: number): boolean {
  const prev = tokens[i - 1];
  const next = tokens[i + 1];
  // `List<String>`, `Map<K, V>`: a type name (Capitalized, not an ALL_CAPS constant) before the bracket.
  const typeName = (t: Token | undefined) => !!t && t.kind === 'name' && /^[A-Z][a-z0-9]/.test(t.text);
  if (typeName(prev) || (tokens[i]?.text === '<' && typeName(next))) return false;
  return (
    !!prev &&
    !!next &&
    (prev.kind === 'name' || prev.kind === 'number' || prev.text === ')' || prev.text === ']') &&
    (next.kind !== 'punct' || next.text === '(')
  );
}

function swapCall(
  source: string,
  tokens: Token[],
  i: number,
): { start: number; end: number; a: [number, number]; b: [number, number] } | null {
  // name ( a , b ) with a and b without nested parentheses or commas
  if (tokens[i]?.kind !== 'name' || tokens[i + 1]?.text !== '(') return null;
  let depth = 0;
  const commas: number[] = [];
  let close = -1;
  for (let k = i + 1; k < tokens.length; k++) {
    const t = tokens[k];
    if (!t) break;
    if (t.text === '(') depth++;
    else if (t.text === ')') {
      depth--;
      if (depth === 0) {
        close = k;
        break;
      }
    } else if (t.text === ',' && depth === 1) commas.push(k);
  }
  const comma = tokens[commas[0] ?? -1];
  const open = tokens[i + 1];
  const end = tokens[close];
  if (commas.length !== 1 || !comma || !open || !end) return null;
  const a: [number, number] = [open.end, comma.start];
  const b: [number, number] = [comma.end, end.start];
  if (!source.slice(...a).trim() || !source.slice(...b).trim()) return null;
  return { start: open.end, end: end.start, a, b };
}

export const tokenGenerator: CandidateGenerator = {
  extensions: [
    '.c',
    '.h',
    '.cc',
    '.cpp',
    '.hpp',
    '.java',
    '.go',
    '.rs',
    '.cs',
    '.kt',
    '.swift',
    '.scala',
    '.php',
    '.rb',
    '.dart',
  ],
  async generate(file, source, lines) {
    const tokens = tokenize(source);
    const out: Candidate[] = [];
    const seen = new Set<string>();
    const push = (template: TemplateId, line: number, edits: Candidate['edits'], description: string) => {
      const result = applyEdits(source, edits);
      if (result === source || seen.has(result)) return;
      seen.add(result);
      out.push({
        file,
        edits,
        template,
        line,
        description: `${description} at ${file}:${line}`,
        size: edits.reduce((n, e) => n + Math.max(e.end - e.start, e.text.length), 0),
      });
    };
    tokens.forEach((t, i) => {
      if (!lines.has(t.line)) return;
      const swap = SWAPS[t.text];
      if (swap && (t.kind !== 'op' || !['<', '>', '<=', '>='].includes(t.text) || isComparison(tokens, i))) {
        for (const to of swap.to)
          push(swap.template, t.line, [{ start: t.start, end: t.end, text: to }], `\`${t.text}\` → \`${to}\``);
      }
      if (t.kind === 'number' && /^[0-9]+$/.test(t.text)) {
        const n = Number(t.text);
        for (const v of [n + 1, n - 1])
          if (v >= 0)
            push('off-by-one-literal', t.line, [{ start: t.start, end: t.end, text: String(v) }], `\`${n}\` → \`${v}\``);
      }
      const call = swapCall(source, tokens, i);
      if (call) {
        const a = source.slice(...call.a).trim();
        const b = source.slice(...call.b).trim();
        push(
          'swap-arguments',
          t.line,
          [{ start: call.start, end: call.end, text: `${b}, ${a}` }],
          `swapped the arguments of \`${t.text}\``,
        );
      }
    });
    return out;
  },
};
