// Candidate patches for JavaScript and TypeScript, from the repair templates applied to the AST
// nodes that start on the suspicious lines.
import { applyEdits, type Candidate, type CandidateGenerator } from '../../candidate.ts';
import { parseProgram, reparses, walk } from './ast.ts';
import { changeFunction, changeMethod, swapArguments } from './calls.ts';
import { dropConjunct, loopBound, negateCondition } from './conditions.ts';
import { changeReturnValue, nullGuard, optionalChaining } from './guards.ts';
import { changeReceiver, replaceIdentifier } from './identifiers.ts';
import { booleanFlip, indexBound, lengthBound, numericOffByOne, sliceBound } from './literals.ts';
import type { JsTemplate } from './mutation.ts';
import { assignmentOperator, operatorReplacement, updateOperator } from './operators.ts';

export const JS_TEMPLATES: JsTemplate[] = [
  operatorReplacement,
  assignmentOperator,
  updateOperator,
  negateCondition,
  dropConjunct,
  loopBound,
  numericOffByOne,
  booleanFlip,
  indexBound,
  sliceBound,
  lengthBound,
  swapArguments,
  changeMethod,
  changeFunction,
  replaceIdentifier,
  changeReceiver,
  nullGuard,
  optionalChaining,
  changeReturnValue,
];

export const jsGenerator: CandidateGenerator = {
  extensions: ['.js', '.mjs', '.cjs', '.jsx', '.ts', '.mts', '.cts', '.tsx'],
  async generate(file, source, lines) {
    const program = parseProgram(file, source);
    if (!program) return [];
    const candidates: Candidate[] = [];
    const seen = new Set<string>();
    walk(program, (node, ancestors) => {
      const line = node.loc.start.line;
      if (!lines.has(line) || node.type === 'Program') return;
      for (const template of JS_TEMPLATES) {
        for (const mutation of template({ file, source, program, node, ancestors })) {
          const edits = [...mutation.edits].sort((a, b) => a.start - b.start);
          const result = applyEdits(source, edits);
          if (result === source || seen.has(result)) continue;
          seen.add(result);
          if (!reparses(file, result)) continue;
          candidates.push({
            file,
            edits,
            template: mutation.template,
            line,
            description: `${mutation.description} at ${file}:${line}`,
            size: edits.reduce((n, e) => n + Math.max(e.end - e.start, e.text.length), 0),
          });
        }
      }
    });
    return candidates;
  },
};
