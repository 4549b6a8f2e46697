// The text edits that make one function record its calls. The function keeps its parameters and
// its identity; its body moves, unchanged, into an arrow function handed to the probe:
//   function f(a) { BODY }  →  function f(a) {return __fixloop_p().c(ID, this, arguments, SELF, FLAGS, () => { BODY });}
// An arrow function keeps `this`, `arguments`, `super` and `new.target` of the function around it, so
// the body means what it meant; an async body stays async. Every insertion is on an existing line,
// so line numbers (stack traces, coverage) do not move.
import { isJsNode, type JsNode } from '../js-tree.ts';
import { PROBE_FUNCTION } from './js-probe-bundle.ts';
import { selfExpression } from './js-probe-self.ts';

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
const SPREAD = '__fixloop_a';

function asNode(value: unknown): JsNode | undefined {
  return isJsNode(value) ? value : undefined;
}

function params(fn: JsNode): JsNode[] {
  return ((fn['params'] as unknown[] | undefined) ?? []).filter(isJsNode);
}

/** A parameter the arrow can hand to the probe by name: `a`, `a = 1`, `...rest`. */
function simpleParam(param: JsNode): string | null {
  if (param.type === 'Identifier') return param['name'] === 'this' ? null : (param['name'] as string);
  if (param.type === 'AssignmentPattern') {
    const left = asNode(param['left']);
    return left?.type === 'Identifier' ? (left['name'] as string) : null;
  }
  if (param.type === 'RestElement') {
    const argument = asNode(param['argument']);
    return argument?.type === 'Identifier' ? `...${argument['name'] as string}` : null;
  }
  return null;
}

/** A class member, or a function stored in a class field: called on an instance, so not generated. */
function isMethod(fn: JsNode, ancestors: readonly JsNode[]): boolean {
  const parent = ancestors[ancestors.length - 1];
  return fn.type === 'ClassMethod' || fn.type === 'ClassPrivateMethod' || parent?.type === 'ClassProperty' || parent?.type === 'ClassPrivateProperty';
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
  const flags = (fn['async'] === true ? ASYNC : 0) | (isMethod(fn, ancestors) ? METHOD : 0);
  const head = (thisArg: string, args: string) => `${PROBE_FUNCTION}().c(${JSON.stringify(id)}, ${thisArg}, ${args}, ${self === null ? 'null' : `() => ${self}`}, ${flags}, `;
  const inner = `${fn['async'] === true ? 'async ' : ''}()${returnType(source, fn, typescript)} => `;
  const edit = (pos: number, text: string, side: 0 | 1): Edit => ({ pos, text, side, spanStart: fn.start, spanEnd: fn.end });
  const directives = ((body['directives'] as unknown[] | undefined) ?? []).filter(isJsNode);
  const bodyOpen = directives.length > 0 ? (directives[directives.length - 1] as JsNode).end : body.start + 1;
  if (fn.type !== 'ArrowFunctionExpression') {
    const edits = [edit(bodyOpen, `return ${head('this', 'arguments')}${inner}{`, 1), edit(body.end - 1, '});', 0)];
    // A type checker would call `this` an implicit any in a plain function: say it is one.
    const first = params(fn)[0];
    const plain = fn.type === 'FunctionDeclaration' || fn.type === 'FunctionExpression';
    if (typescript && plain && !(first?.type === 'Identifier' && first['name'] === 'this')) {
      const open = paramsOpen(source, fn);
      if (open >= 0) edits.push(edit(open + 1, first ? 'this: any, ' : 'this: any', 1));
    }
    return edits;
  }
  const names = params(fn).map(simpleParam);
  if (names.every((name) => name !== null)) {
    const args = `[${names.join(', ')}]`;
    if (body.type === 'BlockStatement') return [edit(bodyOpen, `return ${head('void 0', args)}${inner}{`, 1), edit(body.end - 1, '});', 0)];
    return [edit(body.start, `${head('void 0', args)}${inner}(`, 1), edit(body.end, '))', 0)];
  }
  // Destructured parameters: the arrow itself becomes the body, behind one that takes the arguments as passed.
  return [edit(fn.start, `(...${SPREAD}${typescript ? ': any[]' : ''}) => ${head('void 0', SPREAD)}`, 1), edit(fn.end, ')', 0)];
}
