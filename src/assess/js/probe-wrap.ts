// The text edits that make one function record its calls. The function keeps its parameters and
// its identity; its body moves, unchanged, into an arrow function handed to the probe:
//   function f(a) { BODY }  →  function f(a) {return __fixloop_p().c(ID, this, arguments, SELF, FLAGS, () => { BODY });}
// An arrow function keeps `this`, `arguments`, `super` and `new.target` of the function around it, so
// the body means what it meant; an async body stays async. An arrow of the program is itself the body,
// behind an arrow that takes the arguments as passed:
//   (a, b = 1) => BODY  →  __fixloop_p().k((...__fixloop_a) => __fixloop_p().c(ID, void 0, __fixloop_a, SELF, FLAGS, (a, b = 1) => BODY), 1, "") Every insertion is on an existing line,
// so line numbers (stack traces, coverage) do not move.
import { isJsNode, walkJs, type JsNode } from '../../core/js-tree.ts';
import { PROBE_FUNCTION } from './probe-bundle.ts';
import { holder, keyName } from './probe-functions.ts';
import { selfExpression } from './probe-self.ts';
import { directiveEnd } from './directive-end.ts';

/** Inserted text: `open` edits nest outside-in at one position, `close` edits inside-out. */
export interface Edit {
  pos: number;
  text: string;
  /** 0: a close (sorted first at its position), 1: an open. */
  side: 0 | 1;
  /** The span of the function it belongs to, to nest edits at one position. */
  spanStart: number;
  spanEnd: number;
}

/** As in probe-runtime.cjs. */
const ASYNC = 1;
const METHOD = 2;
const NESTED = 4;
const SPREAD = '__fixloop_a';

function asNode(value: unknown): JsNode | undefined {
  return isJsNode(value) ? value : undefined;
}

function params(fn: JsNode): JsNode[] {
  return ((fn['params'] as unknown[] | undefined) ?? []).filter(isJsNode);
}

/** A class member, or a function stored in a class field: called on an instance (generated calls get a copy of it, probe-held.cjs). */
function isMethod(fn: JsNode, ancestors: readonly JsNode[]): boolean {
  const parent = ancestors[ancestors.length - 1];
  return (
    fn.type === 'ClassMethod' ||
    fn.type === 'ClassPrivateMethod' ||
    parent?.type === 'ClassProperty' ||
    parent?.type === 'ClassPrivateProperty'
  );
}

/**
 * Defined inside another function: a closure over that call's locals (a parser's `setKey` writing the
 * `argv` its enclosing call returns), which a generated call would change under the suite's call.
 */
function isNested(ancestors: readonly JsNode[]): boolean {
  return ancestors.some(isFunctionLike);
}

/** The function's return type, for the arrow that now returns its value (TypeScript keeps its contextual typing). */
function returnType(source: string, fn: JsNode, typescript: boolean): string {
  const annotation = asNode(fn['returnType']);
  const inner = asNode(annotation?.['typeAnnotation']);
  if (!typescript || !annotation || !inner || inner.type === 'TSTypePredicate') return '';
  return source.slice(annotation.start, annotation.end);
}

/** Where the parameter list opens: the first `(` after the name (or type parameters). */
function paramsOpen(source: string, fn: JsNode): number {
  const from = asNode(fn['typeParameters'])?.end ?? asNode(fn['key'])?.end ?? asNode(fn['id'])?.end ?? fn.start;
  return source.indexOf('(', from);
}

/** Edits for a function, or [] when it cannot be wrapped. */
export function wrapEdits(source: string, fn: JsNode, ancestors: readonly JsNode[], id: string, typescript: boolean): Edit[] {
  const body = asNode(fn['body']);
  if (!body) return [];
  const self = selfExpression(fn, ancestors);
  const flags = (fn['async'] === true ? ASYNC : 0) | (isMethod(fn, ancestors) ? METHOD : 0) | (isNested(ancestors) ? NESTED : 0);
  const head = (thisArg: string, args: string) =>
    `${PROBE_FUNCTION}().c(${JSON.stringify(id)}, ${thisArg}, ${args}, ${self === null ? 'null' : `() => ${self}`}, ${flags}, `;
  const inner = `${fn['async'] === true ? 'async ' : ''}()${returnType(source, fn, typescript)} => `;
  const edit = (pos: number, text: string, side: 0 | 1): Edit => ({ pos, text, side, spanStart: fn.start, spanEnd: fn.end });
  const directives = ((body['directives'] as unknown[] | undefined) ?? []).filter(isJsNode);
  const lastDirective = directives[directives.length - 1];
  const bodyOpen = lastDirective ? lastDirective.end : body.start + 1;
  const lead = lastDirective ? directiveEnd(source, lastDirective) : '';
  if (fn.type !== 'ArrowFunctionExpression') {
    const edits =
      fn['generator'] === true
        ? generatorEdits(fn, { id, flags, typescript, bodyOpen, lead }, edit)
        : [edit(bodyOpen, `${lead}return ${head('this', 'arguments')}${inner}{`, 1), edit(body.end - 1, '});', 0)];
    if (edits.length === 0) return [];
    // A type checker would call `this` an implicit any in a plain function: say it is one.
    const first = params(fn)[0];
    const plain = fn.type === 'FunctionDeclaration' || fn.type === 'FunctionExpression';
    if (typescript && plain && !(first?.type === 'Identifier' && first['name'] === 'this')) {
      const open = paramsOpen(source, fn);
      if (open >= 0) edits.push(edit(open + 1, first ? 'this: any, ' : 'this: any', 1));
    }
    return edits;
  }
  // The arrow itself becomes the body, behind one that takes the arguments as the caller passed them
  // (as `arguments` does for other functions): a patch that adds a parameter with a default
  // (`posix = options.windows`) must not make the same call look like another one. The outer arrow
  // keeps the inner one's `length` and `name` (frameworks read a handler's arity).
  const keep = `${PROBE_FUNCTION}().k(`;
  return [
    edit(fn.start, `${keep}(...${SPREAD}${typescript ? ': any[]' : ''}) => ${head('void 0', SPREAD)}`, 1),
    edit(fn.end, `), ${arity(fn)}, ${JSON.stringify(inferredName(fn, ancestors))})`, 0),
  ];
}

/**
 * A generator's body moves into a generator function the probe calls with the call's `this` and
 * arguments (an arrow cannot yield), and the wrapper delegates to the iterator the probe hands back:
 *   function* g(a) { BODY }  →  function* g(a) {return yield* __fixloop_p().y(ID, this, arguments, FLAGS, function* () { BODY });}
 * A body that reads `super` or `new.target` would mean another thing there: it is not wrapped.
 */
function generatorEdits(
  fn: JsNode,
  at: { id: string; flags: number; typescript: boolean; bodyOpen: number; lead: string },
  edit: (pos: number, text: string, side: 0 | 1) => Edit,
): Edit[] {
  const body = asNode(fn['body']);
  if (!body || fn['async'] === true || readsOuterBinding(body)) return [];
  const { id, flags, typescript, bodyOpen, lead } = at;
  const open = `return yield* ${PROBE_FUNCTION}().y(${JSON.stringify(id)}, this, arguments, ${flags}, function* (${typescript ? 'this: any' : ''}) {`;
  return [edit(bodyOpen, lead + open, 1), edit(body.end - 1, '});', 0)];
}

/** Whether a body reads `super` or `new.target` outside the functions it holds (which have their own). */
function readsOuterBinding(body: JsNode): boolean {
  let reads = false;
  walkJs(body, (node, ancestors) => {
    if (node.type !== 'Super' && node.type !== 'MetaProperty') return;
    const own = ancestors.some((a) => a !== body && a.type !== 'ArrowFunctionExpression' && isFunctionLike(a));
    if (!own) reads = true;
  });
  return reads;
}

function isFunctionLike(node: JsNode): boolean {
  return /Function|Method/.test(node.type);
}

/** A function's `length`: its parameters before the first one with a default, or a rest one. */
function arity(fn: JsNode): number {
  const all = params(fn).filter((param) => !(param.type === 'Identifier' && param['name'] === 'this'));
  const first = all.findIndex((param) => param.type === 'AssignmentPattern' || param.type === 'RestElement');
  return first < 0 ? all.length : first;
}

/** The `name` JavaScript gives an anonymous function from where it is written: `const f = …`, `{ f: … }`, `f = …`, `export default …`. */
function inferredName(fn: JsNode, ancestors: readonly JsNode[]): string {
  const { parent, child } = holder(fn, ancestors);
  if (!parent) return '';
  const named = (node: unknown) => (isJsNode(node) && node.type === 'Identifier' ? (node['name'] as string) : '');
  if (parent.type === 'VariableDeclarator' && parent['init'] === child) return named(parent['id']);
  if ((parent.type === 'AssignmentExpression' || parent.type === 'AssignmentPattern') && parent['right'] === child)
    return named(parent['left']);
  if (
    (parent.type === 'ObjectProperty' || parent.type === 'ClassProperty' || parent.type === 'ClassPrivateProperty') &&
    parent['value'] === child
  )
    return keyName(parent) ?? '';
  if (parent.type === 'ExportDefaultDeclaration') return 'default';
  return '';
}
