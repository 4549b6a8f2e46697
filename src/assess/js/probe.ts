// The JavaScript and TypeScript probe of the assessment (docs/design.md §3.3): a file rewritten so that the
// functions a patch changed record every call the test suite makes (arguments, result, mutation,
// caller) and call themselves on inputs generated around each one. The caller instruments the
// original file with the lines the patch removed or changed there, and the patched file with the
// lines it added, runs the suite on each, and compares the two record files (probe-record.ts).
import { isJsNode, parseJs, type JsNode } from '../../core/js-tree.ts';
import type { InstrumentedFile, ProbeTarget } from '../probe-record.ts';
import { PROBE_FUNCTION, probeHeader } from './probe-bundle.ts';
import { directiveEnd } from './directive-end.ts';
import { functionsForLines, namedFunctions } from './probe-functions.ts';
import { pathEdits } from './probe-path.ts';
import { wrapEdits, type Edit } from './probe-wrap.ts';
import { birthEdits, classOf } from './probe-birth.ts';

const VALUE_MODULE_SYNTAX = new Set([
  'ImportDeclaration',
  'ExportNamedDeclaration',
  'ExportDefaultDeclaration',
  'ExportAllDeclaration',
]);

/** An ES module: a value import or export (`import type` alone leaves a CommonJS TypeScript file CommonJS). */
function isModule(program: JsNode): boolean {
  return ((program['body'] as unknown[] | undefined) ?? [])
    .filter(isJsNode)
    .some(
      (statement) =>
        VALUE_MODULE_SYNTAX.has(statement.type) && statement['importKind'] !== 'type' && statement['exportKind'] !== 'type',
    );
}

/**
 * Where the header goes: after the directive prologue (`'use strict'` must stay first), else right
 * before the first statement, so leading comments (a shebang, `@ts-nocheck`, a docblock pragma)
 * stay in front of it, on the same line, so no line moves.
 */
function headerPosition(source: string, program: JsNode): { pos: number; lead: string } {
  const directives = ((program['directives'] as unknown[] | undefined) ?? []).filter(isJsNode);
  const last = directives[directives.length - 1];
  if (last) return { pos: last.end, lead: directiveEnd(source, last) };
  const first = ((program['body'] as unknown[] | undefined) ?? []).find(isJsNode);
  return { pos: first?.start ?? program.start, lead: '' };
}

/** The source with the edits inserted; at one position closes come first, then opens outside-in. */
export function applyEdits(source: string, edits: readonly Edit[]): string {
  const sorted = [...edits].sort(
    (a, b) =>
      a.pos - b.pos ||
      a.side - b.side ||
      (a.side === 1 ? b.spanEnd - a.spanEnd || a.spanStart - b.spanStart : b.spanStart - a.spanStart || a.spanEnd - b.spanEnd),
  );
  let out = '';
  let at = 0;
  for (const edit of sorted) {
    out += source.slice(at, edit.pos) + edit.text;
    at = edit.pos;
  }
  return out + source.slice(at);
}

/**
 * `source` rewritten so the named functions holding the changed lines (1-based lines of this
 * version) record their calls into `target.recordFile`, which must sit one folder below the
 * checkout's root (`<root>/.fixloop-probe/records.jsonl`): the records name their callers relative
 * to that root. Null when the file does not parse or no probed function holds a changed line.
 */
export function instrumentJs(source: string, changedLines: ReadonlySet<number>, target: ProbeTarget): InstrumentedFile | null {
  const program = parseJs(target.path, source);
  if (!program) return null;
  const chosen = functionsForLines(program, namedFunctions(program), changedLines);
  if (chosen.length === 0) return null;
  const typescript = /\.(c|m)?tsx?$/.test(target.path);
  const edits: Edit[] = [];
  const functions = [];
  const own = new Set(chosen.map((fn) => fn.node));
  // The classes whose methods are probed: their constructors record how each object was made (probe-birth.ts).
  const classes = new Set<JsNode>();
  for (const fn of chosen) {
    const id = `${target.path}#${fn.qualifiedName}`;
    const wrap = wrapEdits(source, fn.node, fn.ancestors, id, typescript);
    if (wrap.length === 0) continue;
    const klass = fn.node.type === 'ClassMethod' && fn.node['static'] !== true ? classOf(fn.ancestors) : null;
    if (klass) classes.add(klass);
    edits.push(...wrap, ...pathEdits(fn.node, own, (k) => `${PROBE_FUNCTION}().l(${JSON.stringify(id)}, ${k})`));
    functions.push({ id, name: fn.qualifiedName.replace(/#\d+$/, ''), path: target.path, line: fn.node.loc.start.line });
  }
  if (functions.length === 0) return null;
  for (const klass of classes) edits.push(...birthEdits(klass, typescript));
  const header = headerPosition(source, program);
  edits.push({
    pos: header.pos,
    text:
      header.lead + probeHeader({ module: isModule(program), typescript, recordFile: target.recordFile, values: target.values }),
    side: 1,
    spanStart: -1,
    spanEnd: Number.MAX_SAFE_INTEGER,
  });
  return { source: applyEdits(source, edits), functions };
}
