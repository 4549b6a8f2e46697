// A run's report, rendered once from its RunResult (docs/design.md §1.11): Markdown for people (report.md,
// the pull request's body, the check run, stdout when it is not a terminal) and JSON for tools
// (`--json`, result.json). Every place that shows the run shows these texts, so they cannot disagree;
// a terminal gets the same sections and words as text (render-terminal.ts).
import { redactSecrets } from '../core/redact.ts';
import type { RunResult } from '../core/run-result.ts';
import { renderMarkdownReport } from './render-markdown.ts';

export interface RenderedReport {
  /** The Markdown report, secrets redacted. */
  markdown: string;
  /** The RunResult as indented JSON with a final newline, secrets redacted. */
  json: string;
}

export function renderReport(result: RunResult): RenderedReport {
  return { markdown: renderMarkdownReport(result), json: redactSecrets(`${JSON.stringify(result, null, 2)}\n`) };
}
