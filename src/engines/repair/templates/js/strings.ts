// Strings: a value normalized before it is compared or returned (`x.toLowerCase()`, `line.trimEnd()`),
// and a misspelt string literal replaced by the near-identical literal the file spells elsewhere.
// Both are frequent one-token fixes in real histories (ManySStuBs4J's "wrong function name" and
// "change string literal" kinds; in bench/real: commander, cssstyle and sqlparse fixes).
import { editDistance } from '../../../../core/edit-distance.ts';
import { isJsNode, type JsNode, walkJs, WITH_TYPES } from '../../../../core/js-tree.ts';
import { removesShownDifference } from '../../output-differences.ts';
import { text, type JsTemplate, type Mutation } from './mutation.ts';

const EQUALITY = new Set(['===', '!==', '==', '!=']);
const VALUE = new Set(['Identifier', 'MemberExpression', 'OptionalMemberExpression', 'CallExpression', 'OptionalCallExpression']);
/** Methods that already normalize: a value that went through one is not normalized again. */
const NORMALIZERS = new Set([
  'toLowerCase',
  'toUpperCase',
  'trim',
  'trimEnd',
  'trimStart',
  'trimRight',
  'trimLeft',
  'toLocaleLowerCase',
  'toLocaleUpperCase',
]);

function normalized(node: JsNode): boolean {
  const callee = node.callee;
  return (
    (node.type === 'CallExpression' || node.type === 'OptionalCallExpression') &&
    isJsNode(callee) &&
    isJsNode(callee.property) &&
    NORMALIZERS.has(callee.property.name as string)
  );
}

/** The case a string literal is written in, to pick the normalization that can make a value equal it. */
function casesFor(literal: string): string[] {
  if (!/[a-z]/i.test(literal)) return ['trim'];
  if (literal === literal.toUpperCase()) return ['toUpperCase', 'trim'];
  if (literal === literal.toLowerCase()) return ['toLowerCase', 'trim'];
  return ['trim'];
}

function append(site: Parameters<JsTemplate>[0], value: JsNode, method: string): Mutation {
  const shown = removesShownDifference(method, site.outputDifferences);
  return {
    template: 'normalize-string',
    edits: [{ start: value.end, end: value.end, text: `.${method}()` }],
    description: `\`${text(site, value).slice(0, 40)}\` → \`….${method}()\``,
    ...(shown ? { fromTests: true } : {}),
  };
}

/** The normalizations the failing tests' differences ask for first, the others after. */
function byEvidence(site: Parameters<JsTemplate>[0], methods: string[]): string[] {
  const asked = (m: string) => removesShownDifference(m, site.outputDifferences);
  return [...methods.filter(asked), ...methods.filter((m) => !asked(m))];
}

export const normalizeString: JsTemplate = (site) => {
  const { node, ancestors } = site;
  if (!VALUE.has(node.type) || normalized(node)) return [];
  const parent = ancestors.at(-1);
  if (!parent) return [];
  // The value compared with a string literal: `token.value === 'AS'` → `token.value.toUpperCase() === 'AS'`.
  if (parent.type === 'BinaryExpression' && EQUALITY.has(parent.operator as string)) {
    const other = parent.left === node ? parent.right : parent.left;
    if (!isJsNode(other) || other.type !== 'StringLiteral') return [];
    return byEvidence(site, casesFor(other.value as string)).map((method) => append(site, node, method));
  }
  // A value returned, or joined into a string: `return val` → `return val.toLowerCase()`.
  const joined = parent.type === 'BinaryExpression' && parent.operator === '+' && /['"`]/.test(text(site, parent));
  if ((parent.type === 'ReturnStatement' && parent.argument === node) || joined) {
    return byEvidence(site, ['toLowerCase', 'trim', 'trimEnd', 'toUpperCase']).map((method) => append(site, node, method));
  }
  return [];
};

const fileLiterals = new WeakMap<JsNode, Map<string, number>>();

function literalsOf(program: JsNode): Map<string, number> {
  let counts = fileLiterals.get(program);
  if (!counts) {
    counts = new Map();
    const seen = counts;
    walkJs(
      program,
      (n) => {
        if (n.type === 'StringLiteral') seen.set(n.value as string, (seen.get(n.value as string) ?? 0) + 1);
      },
      WITH_TYPES,
    );
    fileLiterals.set(program, counts);
  }
  return counts;
}

/** `"background-attachemnt"` → `"background-attachment"`, when the file spells the latter elsewhere. */
export const typoLiteral: JsTemplate = (site) => {
  const { node, program } = site;
  if (node.type !== 'StringLiteral') return [];
  const value = node.value as string;
  if (value.length < 5) return [];
  const raw = text(site, node);
  const quote = raw[0] ?? "'";
  const out: Mutation[] = [];
  for (const [other] of literalsOf(program)) {
    if (other === value || other.includes(quote) || other.includes('\\') || editDistance(value, other, { max: 2 }) > 2) continue;
    out.push({
      template: 'typo-literal',
      edits: [{ start: node.start, end: node.end, text: `${quote}${other}${quote}` }],
      description: `${raw} → ${quote}${other}${quote}`,
    });
  }
  return out.slice(0, 4);
};
