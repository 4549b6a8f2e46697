// The text edits that make a class's constructor record how each object of the class was made, for
// the look from outside the runner (docs/design.md §3.3): a method's call on an object whose fields
// cannot be written (a private field, a function the constructor made) is made again on an object
// built by the same constructor call, when the object's fields are as the constructor left them.
//   constructor(a) { BODY }  →  constructor(a) { const __fixloop_n = __fixloop_p().a(arguments); try { BODY } finally { __fixloop_p().n(__fixloop_n, () => this, new.target, "Gauge"); } }
// Only a class with a constructor of its own; in TypeScript, one that extends nothing, since a type
// checker (ts-jest's) would see a derived class's `this` read in the `finally` before `super()`. At
// run time that read is in the arrow, which the runtime calls inside a `try`: a constructor that threw
// before `super()` made no object. Every insertion is on an existing line, so line numbers do not move.
import { isJsNode, type JsNode } from '../../core/js-tree.ts';
import { PROBE_FUNCTION } from './probe-bundle.ts';
import type { Edit } from './probe-wrap.ts';

const BIRTH = '__fixloop_n';

/** The class that holds a method (a class member's ancestors end with the class body and the class). */
export function classOf(ancestors: readonly JsNode[]): JsNode | null {
  const body = ancestors[ancestors.length - 1];
  const owner = ancestors[ancestors.length - 2];
  if (body?.type !== 'ClassBody' || !owner || !/^Class(Declaration|Expression)$/.test(owner.type)) return null;
  return owner;
}

/** Edits for the class's own constructor, or [] when it has none, or is TypeScript and extends another class. */
export function birthEdits(klass: JsNode, typescript: boolean): Edit[] {
  if (klass['superClass'] && typescript) return [];
  // By name, so that a base class's constructor, run by `super()`, records nothing for a subclass's object.
  const id = isJsNode(klass['id']) ? klass['id'] : null;
  const name = id?.type === 'Identifier' ? String(id['name']) : '';
  if (name === '') return [];
  const members = (isJsNode(klass['body']) ? ((klass['body']['body'] as unknown[] | undefined) ?? []) : []).filter(isJsNode);
  const constructor = members.find((m) => m.type === 'ClassMethod' && m['kind'] === 'constructor');
  const body = constructor && isJsNode(constructor['body']) ? constructor['body'] : null;
  if (!constructor || !body) return [];
  const edit = (pos: number, text: string, side: 0 | 1): Edit => ({
    pos,
    text,
    side,
    spanStart: constructor.start,
    spanEnd: constructor.end,
  });
  return [
    edit(body.start + 1, `const ${BIRTH} = ${PROBE_FUNCTION}().a(arguments); try {`, 1),
    edit(body.end - 1, `} finally { ${PROBE_FUNCTION}().n(${BIRTH}, () => this, new.target, ${JSON.stringify(name)}); }`, 0),
  ];
}
