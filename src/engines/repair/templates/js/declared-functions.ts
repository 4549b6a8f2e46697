// The functions a set of JS/TS files declare, by the name a call would use (`basename` for
// `exports.basename = (…) =>`, `function basename(…)`, `const basename = …`, a method `basename(…)`),
// with what each parameter is: an options object (destructured, or named like one) or anything
// else. A call site alone does not say what its callee takes; the "forward the options" template
// (options.ts) needs to know that the callee has an options parameter the call leaves out.
import { isJsNode, type JsNode, parseJs, walkJs, WITH_TYPES } from '../../../../core/js-tree.ts';

export type DeclaredParameter =
  /** `{ windows } = {}` or `options`: `names` are the properties it destructures (none for a plain name). */
  { kind: 'options'; names: string[] } | { kind: 'other' };

export type DeclaredFunctions = ReadonlyMap<string, readonly DeclaredParameter[][]>;

/** The names an options object goes by (a parameter here, a receiver in options.ts). */
export const OPTIONS_NAMES = '(?:opts|options|config|settings)';
const OPTIONS_PARAMETER = new RegExp(`^${OPTIONS_NAMES}$`);
const FUNCTION_VALUES = new Set(['ArrowFunctionExpression', 'FunctionExpression']);

function parameterOf(param: unknown): DeclaredParameter {
  const target = isJsNode(param) && param.type === 'AssignmentPattern' ? param.left : param;
  if (!isJsNode(target)) return { kind: 'other' };
  if (target.type === 'ObjectPattern') {
    const names = (target.properties as JsNode[]).flatMap((p) =>
      p.type === 'ObjectProperty' && isJsNode(p.key) && p.key.type === 'Identifier' && !p.computed ? [p.key.name as string] : [],
    );
    return { kind: 'options', names };
  }
  if (target.type === 'Identifier' && OPTIONS_PARAMETER.test(target.name as string)) return { kind: 'options', names: [] };
  return { kind: 'other' };
}

/** The name a function value is called by, from where it is declared or assigned. */
function nameOf(node: JsNode, parent: JsNode | undefined): string | null {
  if (node.type === 'FunctionDeclaration' && isJsNode(node.id)) return node.id.name as string;
  if (
    (node.type === 'ObjectMethod' || node.type === 'ClassMethod') &&
    isJsNode(node.key) &&
    node.key.type === 'Identifier' &&
    !node.computed
  )
    return node.key.name as string;
  if (!FUNCTION_VALUES.has(node.type) || !parent) return null;
  if (parent.type === 'VariableDeclarator' && parent.init === node && isJsNode(parent.id) && parent.id.type === 'Identifier')
    return parent.id.name as string;
  if (parent.type === 'AssignmentExpression' && parent.right === node && isJsNode(parent.left)) {
    const left = parent.left;
    if (left.type === 'Identifier') return left.name as string;
    if (left.type === 'MemberExpression' && !left.computed && isJsNode(left.property) && left.property.type === 'Identifier')
      return left.property.name as string;
  }
  if (
    (parent.type === 'ObjectProperty' || parent.type === 'ClassProperty') &&
    parent.value === node &&
    isJsNode(parent.key) &&
    parent.key.type === 'Identifier' &&
    !parent.computed
  )
    return parent.key.name as string;
  return null;
}

const byFileSet = new WeakMap<ReadonlyMap<string, string>, DeclaredFunctions>();

/** Every named function of the JS/TS files among `sources` (files that do not parse are left out). */
export function declaredFunctions(sources: ReadonlyMap<string, string>): DeclaredFunctions {
  const cached = byFileSet.get(sources);
  if (cached) return cached;
  const found = new Map<string, DeclaredParameter[][]>();
  for (const [file, source] of sources) {
    if (!/\.(?:[cm]?[jt]sx?)$/.test(file)) continue;
    const program = parseJs(file, source);
    if (!program) continue;
    walkJs(
      program,
      (node, ancestors) => {
        const name = nameOf(node, ancestors.at(-1));
        if (name === null) return;
        const params = (node.params as unknown[]).map(parameterOf);
        found.set(name, [...(found.get(name) ?? []), params]);
      },
      WITH_TYPES,
    );
  }
  byFileSet.set(sources, found);
  return found;
}
