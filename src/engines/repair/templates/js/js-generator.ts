// Candidate patches for JavaScript and TypeScript, from the repair templates applied to the AST
// nodes that start on the suspicious lines.
import { editsKey, GenerationError, minimalEdits, type Candidate, type CandidateGenerator } from '../../candidate.ts';
import { parseJs, walkJs, WITH_TYPES } from '../../../../core/js-tree.ts';
import { changeFunction, changeMethod, swapArguments } from './calls.ts';
import { extendChain, filterEmpty } from './chains.ts';
import {
  addConjunct,
  dropConjunct,
  loopBound,
  negateCondition,
  presenceCheck,
  regroupLogic,
  widenTypeCheck,
} from './conditions.ts';
import { deleteStatement } from './statements.ts';
import { removeUnusedDeclaration } from './declarations.ts';
import { regexLiteral } from './regex.ts';
import { forwardOptions, honorOption } from './options.ts';
import { declaredFunctions } from './declared-functions.ts';
import { normalizeString, typoLiteral } from './strings.ts';
import { changeReturnValue, nullGuard, optionalChaining } from './guards.ts';
import { changeReceiver, replaceIdentifier } from './identifiers.ts';
import { booleanFlip, indexBound, lengthBound, numericOffByOne, sliceBound } from './literals.ts';
import type { JsTemplate, Mutation } from './mutation.ts';
import { assignmentOperator, operatorReplacement, updateOperator } from './operators.ts';

export const JS_TEMPLATES: JsTemplate[] = [
  operatorReplacement,
  assignmentOperator,
  updateOperator,
  negateCondition,
  dropConjunct,
  regroupLogic,
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
  normalizeString,
  typoLiteral,
  addConjunct,
  honorOption,
  forwardOptions,
  presenceCheck,
  widenTypeCheck,
  regexLiteral,
  deleteStatement,
  removeUnusedDeclaration,
  filterEmpty,
  extendChain,
];

export const jsGenerator: CandidateGenerator = {
  extensions: ['.js', '.mjs', '.cjs', '.jsx', '.ts', '.mts', '.cts', '.tsx'],
  async generate(file, source, lines, context) {
    const program = parseJs(file, source);
    if (!program) return [];
    const candidates: Candidate[] = [];
    const seen = new Set<string>();
    const failures: string[] = [];
    const declared = declaredFunctions(context?.sources ?? new Map([[file, source]]));
    walkJs(
      program,
      (node, ancestors) => {
        const line = node.loc.start.line;
        if (!lines.has(line) || node.type === 'Program') return;
        for (const template of JS_TEMPLATES) {
          let mutations: Mutation[];
          try {
            mutations = template({
              file,
              source,
              program,
              node,
              ancestors,
              optionNames: context?.optionNames ?? [],
              valueTypes: context?.valueTypes ?? [],
              outputDifferences: context?.outputDifferences ?? [],
              declared,
            });
          } catch (error) {
            // One template failing on one node costs that node's candidates of it, not the attempt.
            failures.push(
              `${template.name} on the ${node.type} at ${file}:${line}: ${error instanceof Error ? error.message : String(error)}`,
            );
            continue;
          }
          for (const mutation of mutations) {
            // Duplicates are told apart by their edits, not by the file they write: building and
            // reparsing the whole file for each of thousands of candidates made generation scale with
            // the file's size. Whether a candidate parses is asked later, of the ones that are tried.
            const minimal = minimalEdits(source, mutation.edits);
            if (minimal.length === 0) continue;
            const edits = [...mutation.edits].sort((a, b) => a.start - b.start);
            const key = editsKey(file, minimal);
            if (seen.has(key)) continue;
            seen.add(key);
            candidates.push({
              file,
              edits,
              template: mutation.template,
              line,
              description: `${mutation.description} at ${file}:${line}`,
              size: edits.reduce((n, e) => n + Math.max(e.end - e.start, e.text.length), 0),
              ...(mutation.fromTests ? { fromTests: true } : {}),
            });
          }
        }
      },
      WITH_TYPES,
    );
    if (failures.length > 0)
      throw new GenerationError(
        `a repair template failed ${failures.length} time(s) (${failures[0]}); the other templates' candidates were kept`,
        candidates,
      );
    return candidates;
  },
  // A file the judge cannot parse is one no candidate may leave behind.
  parses: (file, source) => parseJs(file, source) !== null,
};
