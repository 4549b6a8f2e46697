// Conditions: negation, removal of one side of && / ||, and loop bounds.
import { isJsNode, type JsNode, walkJs, WITH_TYPES } from '../../../../core/js-tree.ts';
import { replaceNode, text, type JsTemplate, type Mutation } from './mutation.ts';

const TESTED = new Set(['IfStatement', 'WhileStatement', 'DoWhileStatement', 'ConditionalExpression', 'ForStatement']);

export const negateCondition: JsTemplate = (site) => {
  const { node } = site;
  if (!TESTED.has(node.type) || !isJsNode(node.test)) return [];
  const test = node.test;
  const inner = text(site, test);
  // `!x` → `x` rather than `!(!x)`.
  const negated =
    test.type === 'UnaryExpression' && test.operator === '!' && isJsNode(test.argument)
      ? text(site, test.argument)
      : `!(${inner})`;
  return [
    { template: 'negate-condition', edits: [replaceNode(test, negated)], description: `negated the condition \`${inner}\`` },
  ];
};

export const dropConjunct: JsTemplate = (site) => {
  const { node } = site;
  if (
    node.type !== 'LogicalExpression' ||
    (node.operator !== '&&' && node.operator !== '||') ||
    !isJsNode(node.left) ||
    !isJsNode(node.right)
  )
    return [];
  const left = text(site, node.left);
  const right = text(site, node.right);
  return [
    {
      template: 'drop-conjunct',
      edits: [replaceNode(node, left)],
      description: `dropped \`${node.operator as string} ${right}\``,
    },
    {
      template: 'drop-conjunct',
      edits: [replaceNode(node, right)],
      description: `dropped \`${left} ${node.operator as string}\``,
    },
  ];
};

const BOUND_OPERATORS = new Set(['<', '<=', '>', '>=']);

export const loopBound: JsTemplate = (site) => {
  const { node, ancestors } = site;
  const parent = ancestors.at(-1);
  if (node.type !== 'BinaryExpression' || !BOUND_OPERATORS.has(node.operator as string) || !isJsNode(node.right)) return [];
  if (!parent || !(parent.type === 'ForStatement' || parent.type === 'WhileStatement') || parent.test !== node) return [];
  const bound = text(site, node.right);
  const out: Mutation[] = [];
  for (const delta of ['- 1', '+ 1']) {
    out.push({
      template: 'loop-bound',
      edits: [replaceNode(node.right, `${bound} ${delta}`)],
      description: `loop bound \`${bound}\` → \`${bound} ${delta}\``,
    });
  }
  return out;
};

/** The flags a file tests (`opts.nonegate`, `this.defaultExecutable`): members read as conditions. */
const fileFlags = new WeakMap<JsNode, string[]>();

function flagsOf(site: Parameters<JsTemplate>[0]): string[] {
  let flags = fileFlags.get(site.program);
  if (!flags) {
    const seen = new Map<string, number>();
    walkJs(
      site.program,
      (n) => {
        const tested = [
          TESTED.has(n.type) ? n.test : null,
          n.type === 'UnaryExpression' && n.operator === '!' ? n.argument : null,
          n.type === 'LogicalExpression' ? n.left : null,
          n.type === 'LogicalExpression' ? n.right : null,
        ];
        for (const t of tested) {
          if (
            isJsNode(t) &&
            t.type === 'MemberExpression' &&
            !t.computed &&
            isJsNode(t.object) &&
            (t.object.type === 'Identifier' || t.object.type === 'ThisExpression')
          ) {
            const raw = site.source.slice(t.start, t.end);
            if (!seen.has(raw)) seen.set(raw, t.start);
          }
        }
      },
      WITH_TYPES,
    );
    flags = [...seen.keys()];
    fileFlags.set(site.program, flags);
  }
  return flags;
}

const MAX_FLAGS = 6;

/**
 * "More specific if" (ManySStuBs4J): an `if` that misses a condition, `if (unknown.length > 0)` →
 * `if (unknown.length > 0 && !this.defaultExecutable)`, with the flags the file already tests, nearest
 * first, each negated and as it is.
 */
export const addConjunct: JsTemplate = (site) => {
  const { node, source } = site;
  if (node.type !== 'IfStatement' || !isJsNode(node.test)) return [];
  const test = node.test;
  const raw = text(site, test);
  const flags = flagsOf(site).filter((f) => !raw.includes(f));
  const near = flags
    .map((flag) => ({ flag, at: source.indexOf(flag) }))
    .sort((a, b) => Math.abs(a.at - node.start) - Math.abs(b.at - node.start))
    .slice(0, MAX_FLAGS);
  const left = test.type === 'LogicalExpression' && test.operator !== '&&' ? `(${raw})` : raw;
  return near.flatMap(({ flag }) =>
    [`!${flag}`, flag].map((conjunct) => ({
      template: 'add-conjunct' as const,
      edits: [replaceNode(test, `${left} && ${conjunct}`)],
      description: `added \`&& ${conjunct}\` to \`${raw.slice(0, 40)}\``,
    })),
  );
};

/** A truthiness test that also rejects `0`, `''` and `false`: `if (object[key])` → `if (object[key] !== undefined)`. */
export const presenceCheck: JsTemplate = (site) => {
  const { node } = site;
  if (
    !TESTED.has(node.type) ||
    !isJsNode(node.test) ||
    !['MemberExpression', 'OptionalMemberExpression', 'Identifier'].includes(node.test.type)
  )
    return [];
  const raw = text(site, node.test);
  return [' !== undefined', ' != null'].map((check) => ({
    template: 'presence-check' as const,
    edits: [replaceNode(node.test as JsNode, `${raw}${check}`)],
    description: `\`${raw}\` → \`${raw}${check}\``,
  }));
};

const TYPES = ['string', 'number', 'boolean', 'object', 'undefined', 'function', 'bigint', 'symbol'];

/**
 * "Less specific if" for type checks: `typeof v === 'number'` → `(typeof v === 'number' || typeof v === 'boolean')`.
 * The types the failing tests' names show come first, their text taken from the tests (a test
 * named for an object of booleans widens a check for numbers to booleans first).
 */
export const widenTypeCheck: JsTemplate = (site) => {
  const { node } = site;
  if (node.type !== 'BinaryExpression' || !['===', '=='].includes(node.operator as string)) return [];
  const [probe, literal] =
    isJsNode(node.left) && node.left.type === 'UnaryExpression' ? [node.left, node.right] : [node.right, node.left];
  if (
    !isJsNode(probe) ||
    probe.type !== 'UnaryExpression' ||
    probe.operator !== 'typeof' ||
    !isJsNode(literal) ||
    literal.type !== 'StringLiteral'
  )
    return [];
  const raw = text(site, node);
  const subject = text(site, probe);
  const quote = text(site, literal)[0] ?? "'";
  const shown = new Set(site.valueTypes);
  const types = [...TYPES.filter((t) => shown.has(t)), ...TYPES.filter((t) => !shown.has(t))];
  return types
    .filter((t) => t !== literal.value)
    .map((t) => ({
      template: 'widen-type-check' as const,
      edits: [replaceNode(node, `(${raw} || ${subject} ${node.operator as string} ${quote}${t}${quote})`)],
      description: `\`${raw}\` → also \`${t}\``,
      ...(shown.has(t) ? { fromTests: true } : {}),
    }));
};

const parenthesized = (node: JsNode) => (node.extra as { parenthesized?: boolean } | undefined)?.parenthesized === true;

/**
 * `a && b || c` → `a && (b || c)` and `a || b && c` → `(a || b) && c`: a condition that mixes `&&`
 * and `||` without parentheses groups as precedence says, which is not always what was meant
 * (`!state.legacy && A || B` meant as `!state.legacy && (A || B)`: a flag that guards both). Only the
 * parentheses are inserted, so the condition keeps its lines and comments.
 */
export const regroupLogic: JsTemplate = (site) => {
  const { node } = site;
  if (node.type !== 'LogicalExpression' || node.operator !== '||' || !isJsNode(node.left) || !isJsNode(node.right)) return [];
  const unparenthesizedAnd = (n: JsNode): n is JsNode & { left: JsNode; right: JsNode } =>
    n.type === 'LogicalExpression' && n.operator === '&&' && !parenthesized(n) && isJsNode(n.left) && isJsNode(n.right);
  const out: Mutation[] = [];
  const raw = text(site, node);
  const regrouped = (open: JsNode, close: JsNode) => {
    // A parenthesized operand's own offsets exclude its parentheses: the new ones could land inside them.
    if (parenthesized(open) || parenthesized(close)) return;
    const edits = [
      { start: open.start, end: open.start, text: '(' },
      { start: close.end, end: close.end, text: ')' },
    ];
    const after = `${site.source.slice(node.start, open.start)}(${site.source.slice(open.start, close.end)})${site.source.slice(close.end, node.end)}`;
    out.push({
      template: 'regroup-logic',
      edits,
      description: `regrouped \`${raw.slice(0, 40)}\` as \`${after.replace(/\s+/g, ' ').slice(0, 60)}\``,
    });
  };
  // (a && b) || c → a && (b || c)
  if (unparenthesizedAnd(node.left)) regrouped(node.left.right, node.right);
  // a || (b && c) → (a || b) && c
  if (unparenthesizedAnd(node.right)) regrouped(node.left, node.right.left);
  return out;
};
