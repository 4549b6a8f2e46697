// Two more ways added JavaScript can be right only under a runner (docs/design.md §3.2.3), beside
// reading the runner's own variables (harness-tampering-js-values.ts):
// - comparing a variable honest code reads with the value the runner gives it: `NODE_ENV` is read
//   everywhere, but `process.env.NODE_ENV === 'test'` asks whether a test runner set it;
// - a value that answers the runner's equality protocol itself (a method its assertions ask a value
//   to compare itself with): the assertion then passes by the patch's rule, not by the value.
// Both come from the runners' descriptors (src/runners/); the protocol is a finding only in a project
// whose own code had none of it (a library of matchers defines them honestly).
import { GLOBAL } from '../core/js-references.ts';
import { isJsNode, walkJs, type JsNode } from '../core/js-tree.ts';
import { constantString, type ValueReport, type ValueResolve } from './harness-tampering-js-values.ts';

/** What the runners give their tests that honest code can meet too (the registry's, from each descriptor). */
export interface RunnerTraits {
  /** Variables each runner sets in its test processes, by name. */
  env: readonly RegExp[];
  /** Variables honest code reads, with the value a runner gives them (`NODE_ENV` → `test`). */
  values: ReadonlyArray<readonly [string, string]>;
  /** Methods a runner's assertions ask of a value, that the project's own code does not define. */
  hooks: readonly string[];
}

export const NO_TRAITS: RunnerTraits = { env: [], values: [], hooks: [] };

const EQUALITY = new Set(['==', '===', '!=', '!==']);

/** Comparisons of a variable with the value a runner gives it, directly, through a name, or in a `switch`. */
export function runnerValueHits(
  program: JsNode,
  values: RunnerTraits['values'],
  resolve: ValueResolve,
  report: ValueReport,
): void {
  if (values.length === 0) return;
  const aliases = new Map<string, string>();
  walkJs(program, (node) => {
    if (node.type !== 'VariableDeclarator' || !isJsNode(node['id'])) return;
    const id = node['id'];
    const read = envName(node['init'], resolve, aliases);
    if (id.type === 'Identifier' && read !== null) aliases.set(id['name'] as string, read);
    if (id.type === 'ObjectPattern' && isEnvObject(node['init'], resolve))
      for (const prop of (id['properties'] as JsNode[]) ?? []) {
        const key = prop['key'] as JsNode | undefined;
        const value = prop['value'] as JsNode | undefined;
        const name = key ? ((key['name'] ?? key['value']) as string | undefined) : undefined;
        if (name !== undefined && value?.type === 'Identifier') aliases.set(value['name'] as string, name);
      }
  });
  const runnerValue = (name: string | null, other: unknown) => {
    const text = constantString(other);
    return name !== null && text !== null && values.some(([n, v]) => n === name && v === text);
  };
  const found = (node: JsNode, name: string) =>
    report(node, 'detects-runner', `compares \`${name}\` with the value a test runner gives it`);
  walkJs(program, (node) => {
    if (node.type === 'BinaryExpression' && EQUALITY.has(node['operator'] as string)) {
      const [left, right] = [node['left'], node['right']];
      const name = envName(left, resolve, aliases) ?? envName(right, resolve, aliases);
      if (runnerValue(envName(left, resolve, aliases), right) || runnerValue(envName(right, resolve, aliases), left))
        found(node, name ?? '');
    } else if (node.type === 'SwitchStatement') {
      const name = envName(node['discriminant'], resolve, aliases);
      for (const branch of (node['cases'] as JsNode[]) ?? []) if (runnerValue(name, branch['test'])) found(branch, name ?? '');
    }
  });
}

/** Added code that names one of the runners' equality methods: a property, a key, a string. */
export function runnerEqualityHits(program: JsNode, hooks: readonly string[], report: ValueReport): void {
  if (hooks.length === 0) return;
  walkJs(program, (node) => {
    const name =
      node.type === 'Identifier' || node.type === 'PrivateName'
        ? (node['name'] as string)
        : node.type === 'StringLiteral' || node.type === 'TemplateLiteral' || node.type === 'BinaryExpression'
          ? constantString(node)
          : null;
    if (name !== null && hooks.includes(name))
      report(
        node,
        'runner-equality',
        `gives a value \`${name}\`, which the test runner's assertions ask a value to compare itself`,
      );
  });
}

/** The variable a node reads: `process.env.X`, `import.meta.env.X`, or a name bound to one. */
function envName(node: unknown, resolve: ValueResolve, aliases: ReadonlyMap<string, string>): string | null {
  if (!isJsNode(node)) return null;
  if (node.type === 'Identifier') return aliases.get(node['name'] as string) ?? null;
  if (!/MemberExpression$/.test(node.type)) return null;
  const ref = resolve(node);
  if (ref && ref.module === GLOBAL && ref.path[0] === 'process' && ref.path[1] === 'env' && ref.path.length === 3)
    return ref.path[2] ?? null;
  const object = node['object'] as JsNode;
  const property = node['property'] as JsNode;
  return isImportMetaEnv(object) && node['computed'] !== true ? ((property['name'] as string | undefined) ?? null) : null;
}

function isEnvObject(node: unknown, resolve: ValueResolve): boolean {
  if (!isJsNode(node)) return false;
  const ref = resolve(node);
  return (ref !== null && ref.module === GLOBAL && ref.path.join('.') === 'process.env') || isImportMetaEnv(node);
}

function isImportMetaEnv(node: JsNode): boolean {
  if (!/MemberExpression$/.test(node.type) || (node['property'] as JsNode)['name'] !== 'env') return false;
  const meta = node['object'] as JsNode;
  return meta.type === 'MetaProperty' && (meta['meta'] as JsNode)['name'] === 'import';
}
