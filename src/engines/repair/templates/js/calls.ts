// Calls: swapped arguments, min↔max and friends, some↔every, and a method replaced by a similar one.
import type { TemplateId } from '../../candidate.ts';
import { isJsNode, type JsNode, walkJs, WITH_TYPES } from '../../../../core/js-tree.ts';
import { replaceNode, text, type JsTemplate, type Mutation } from './mutation.ts';

/** Pairs a person mixes up; the first of each group's alternatives is tried first. */
const METHOD_SWAPS: Record<string, { to: string[]; template: TemplateId }> = {
  min: { to: ['max'], template: 'min-max' },
  max: { to: ['min'], template: 'min-max' },
  floor: { to: ['ceil', 'round'], template: 'min-max' },
  ceil: { to: ['floor', 'round'], template: 'min-max' },
  round: { to: ['floor', 'ceil'], template: 'min-max' },
  some: { to: ['every'], template: 'any-all' },
  every: { to: ['some'], template: 'any-all' },
  push: { to: ['unshift'], template: 'change-method' },
  unshift: { to: ['push'], template: 'change-method' },
  pop: { to: ['shift'], template: 'change-method' },
  shift: { to: ['pop'], template: 'change-method' },
  indexOf: { to: ['lastIndexOf', 'includes'], template: 'change-method' },
  lastIndexOf: { to: ['indexOf'], template: 'change-method' },
  startsWith: { to: ['endsWith', 'includes'], template: 'change-method' },
  endsWith: { to: ['startsWith', 'includes'], template: 'change-method' },
  toLowerCase: { to: ['toUpperCase'], template: 'change-method' },
  toUpperCase: { to: ['toLowerCase'], template: 'change-method' },
  trimStart: { to: ['trimEnd', 'trim'], template: 'change-method' },
  trimEnd: { to: ['trimStart', 'trim'], template: 'change-method' },
  find: { to: ['findLast', 'filter'], template: 'change-method' },
  findIndex: { to: ['findLastIndex', 'indexOf'], template: 'change-method' },
  filter: { to: ['find'], template: 'change-method' },
  slice: { to: ['splice', 'substring'], template: 'change-method' },
  substring: { to: ['slice', 'substr'], template: 'change-method' },
  padStart: { to: ['padEnd'], template: 'change-method' },
  padEnd: { to: ['padStart'], template: 'change-method' },
  keys: { to: ['values', 'entries'], template: 'change-method' },
  values: { to: ['keys', 'entries'], template: 'change-method' },
  parseInt: { to: ['parseFloat'], template: 'change-method' },
  parseFloat: { to: ['parseInt'], template: 'change-method' },
};

/** The known swaps of a name: own entries only (`constructor` or `toString` are names too). */
function swapsOf(name: string): { to: string[]; template: TemplateId } | undefined {
  return Object.hasOwn(METHOD_SWAPS, name) ? METHOD_SWAPS[name] : undefined;
}

export const swapArguments: JsTemplate = (site) => {
  const { node } = site;
  if (node.type !== 'CallExpression' && node.type !== 'NewExpression') return [];
  const args = (node.arguments as JsNode[]).filter((a) => a.type !== 'SpreadElement');
  const out: Mutation[] = [];
  for (let i = 0; i < args.length; i++) {
    for (let j = i + 1; j < args.length; j++) {
      const a = args[i];
      const b = args[j];
      if (!a || !b || text(site, a) === text(site, b)) continue;
      out.push({
        template: 'swap-arguments',
        edits: [replaceNode(a, text(site, b)), replaceNode(b, text(site, a))],
        description: `swapped arguments ${i + 1} and ${j + 1} of \`${text(site, node.callee as JsNode).slice(0, 40)}\``,
      });
    }
  }
  return out;
};

/** Method names called in this file, for "a similar method" replacements. */
function methodNamesInFile(program: JsNode): Set<string> {
  const names = new Set<string>();
  walkJs(
    program,
    (n) => {
      if (
        (n.type === 'CallExpression' || n.type === 'OptionalCallExpression') &&
        isJsNode(n.callee) &&
        isJsNode(n.callee.property) &&
        n.callee.property.type === 'Identifier'
      ) {
        names.add(n.callee.property.name as string);
      }
    },
    WITH_TYPES,
  );
  return names;
}

function similar(a: string, b: string): boolean {
  if (a === b) return false;
  const prefix = [...a].findIndex((c, i) => c !== b[i]);
  const shared = prefix === -1 ? Math.min(a.length, b.length) : prefix;
  return shared >= 3 || (a.length > 4 && b.length > 4 && (a.endsWith(b.slice(-4)) || b.endsWith(a.slice(-4))));
}

const fileMethods = new WeakMap<JsNode, Set<string>>();

export const changeMethod: JsTemplate = (site) => {
  const { node, program } = site;
  if (node.type !== 'CallExpression' && node.type !== 'OptionalCallExpression') return [];
  const callee = node.callee;
  // Math.min(...) style: the property is the function; plain calls have no receiver to keep.
  if (!isJsNode(callee) || !isJsNode(callee.property) || callee.property.type !== 'Identifier' || callee.computed) return [];
  const name = callee.property.name as string;
  const out: Mutation[] = [];
  const known = swapsOf(name);
  for (const to of known?.to ?? []) {
    out.push({
      template: known?.template ?? 'change-method',
      edits: [replaceNode(callee.property, to)],
      description: `\`.${name}(…)\` → \`.${to}(…)\``,
    });
  }
  let names = fileMethods.get(program);
  if (!names) {
    names = methodNamesInFile(program);
    fileMethods.set(program, names);
  }
  for (const other of [...names].sort()) {
    if (similar(name, other) && !known?.to.includes(other)) {
      out.push({
        template: 'change-method',
        edits: [replaceNode(callee.property, other)],
        description: `\`.${name}(…)\` → \`.${other}(…)\``,
      });
    }
  }
  return out;
};

/** Plain function calls among similarly named functions of the file: `minOf(x)` → `maxOf(x)`. */
export const changeFunction: JsTemplate = (site) => {
  const { node } = site;
  if (node.type !== 'CallExpression' || !isJsNode(node.callee) || node.callee.type !== 'Identifier') return [];
  const name = node.callee.name as string;
  const known = swapsOf(name);
  return (known?.to ?? []).map((to) => ({
    template: known?.template ?? 'change-method',
    edits: [replaceNode(node.callee as JsNode, to)],
    description: `\`${name}(…)\` → \`${to}(…)\``,
  }));
};
