// What a JS/TS template produces for one AST node: edits and a description; the generator adds
// the file, the line and the size, re-parses the result and drops duplicates.
import type { TemplateId, TextEdit } from '../../candidate.ts';
import type { OutputDifference } from '../../output-differences.ts';
import type { JsNode } from '../../../../core/js-tree.ts';
import type { DeclaredFunctions } from './declared-functions.ts';

export interface Mutation {
  template: TemplateId;
  edits: TextEdit[];
  description: string;
  /** What it inserts is what the failing tests show (Candidate.fromTests). */
  fromTests?: boolean;
}

export interface SiteContext {
  file: string;
  source: string;
  program: JsNode;
  node: JsNode;
  ancestors: readonly JsNode[];
  /** Options the failing tests pass (GenerationContext). */
  optionNames: readonly string[];
  /** `typeof` names of the values the failing tests' names write out (GenerationContext). */
  valueTypes: readonly string[];
  /** How the failing tests' expected and actual values differ, when only in one way (GenerationContext). */
  outputDifferences: readonly OutputDifference[];
  /** The functions the files generated for declare, by name (declared-functions.ts). */
  declared: DeclaredFunctions;
}

export type JsTemplate = (site: SiteContext) => Mutation[];

export function text(site: SiteContext, node: JsNode): string {
  return site.source.slice(node.start, node.end);
}

/** Offset of `operator` between two operand nodes (the AST keeps no position for operators). */
export function operatorOffset(source: string, left: JsNode, right: JsNode, operator: string): number | null {
  const between = source.slice(left.end, right.start);
  // Skip closing parentheses and comments of the left operand: the first match of the operator is it.
  const index = between.indexOf(operator);
  return index === -1 ? null : left.end + index;
}

export function replaceNode(node: JsNode, replacement: string): TextEdit {
  return { start: node.start, end: node.end, text: replacement };
}

const ATOMIC = new Set([
  'Identifier',
  'NumericLiteral',
  'StringLiteral',
  'BooleanLiteral',
  'NullLiteral',
  'MemberExpression',
  'OptionalMemberExpression',
  'CallExpression',
  'OptionalCallExpression',
  'ArrayExpression',
  'ObjectExpression',
  'ThisExpression',
  'TemplateLiteral',
]);

/** A node's text, parenthesized unless it binds tighter than any operator. */
export function atom(site: SiteContext, node: JsNode): string {
  const raw = text(site, node);
  return ATOMIC.has(node.type) ? raw : `(${raw})`;
}
