// How likely each template is to be the fix, before looking at the code: the order in which the
// engine tries templates at equally suspicious lines. The ranking follows the program-repair
// literature's evidence on which fix patterns repair the most real bugs (see docs/repair-templates.md);
// the numbers are relative ranks, a judgement from that evidence, not measured frequencies.
import type { TemplateId } from './candidate.ts';

export const TEMPLATE_PRIORS: Readonly<Record<TemplateId, number>> = {
  'relational-operator': 0.9,
  'equality-operator': 0.8,
  'off-by-one-bound': 0.75,
  'loop-bound': 0.72,
  'logical-operator': 0.72,
  'negate-condition': 0.7,
  'arithmetic-operator': 0.68,
  'drop-conjunct': 0.62,
  'off-by-one-literal': 0.6,
  'change-method': 0.58,
  'min-max': 0.58,
  'any-all': 0.58,
  'replace-identifier': 0.55,
  'add-null-guard': 0.5,
  'swap-arguments': 0.45,
  'change-return-value': 0.42,
  'swap-operands': 0.4,
  'bitwise-operator': 0.3,
  'change-receiver': 0.3,
  // Learned from the real corpus (bench/real, docs/repair-templates.md): fix kinds its upstream fixes
  // need that the operator templates above do not make.
  'normalize-string': 0.6,
  'typo-literal': 0.55,
  'add-conjunct': 0.5,
  'honor-option': 1.0,
  'presence-check': 0.5,
  'widen-type-check': 0.5,
  'regex-literal': 0.5,
  'delete-statement': 0.35,
  // A declaration whose name nothing reads (what `no-unused-vars` reports): removing it changes no
  // behaviour, so it fixes what a lint rule says, never a failing assertion. Last of all.
  'remove-unused-declaration': 0.2,
  // Precedence taken for the grouping meant (a guard flag before `A || B`); a judgement like the rest, between a
  // changed operator and a dropped conjunct.
  'regroup-logic': 0.6,
  // A link a method chain lacks (`.split('/').join('/')` that keeps empty segments): the idiom that leaves empty items out of a join,
  // and a link the same file uses elsewhere. Below the changed operators: a chain has many places
  // and a file many links, so these candidates are many.
  'filter-empty': 0.45,
  'extend-chain': 0.35,
};

/**
 * Templates whose inserted text is one unit nobody invented: the failing tests' own words
 * (`!opts.nonegate && ` names an option the tests pass), a link the same file already uses, or the
 * language's idiom. Its length says nothing about how likely the fix is, so it is not charged for
 * size as an invented edit is (an 18-character guard on an option the tests pass would rank behind
 * every one-character operator change of the more suspicious lines).
 */
export const SIZE_FREE: ReadonlySet<TemplateId> = new Set(['honor-option', 'extend-chain', 'filter-empty']);

export function templatePrior(id: TemplateId): number {
  return TEMPLATE_PRIORS[id];
}
