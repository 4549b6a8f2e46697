import { describe, expect, it } from 'vitest';
import type { RemovedFromRequest } from '../../src/core/request-text.ts';
import { renderMarkdownReport } from '../../src/report/render-markdown.ts';
import { removedFromRequestLine } from '../../src/report/removed-from-request.ts';
import { greenResult } from '../support/sample-run-result.ts';

const none: RemovedFromRequest = {
  htmlComments: 0,
  hiddenElements: 0,
  attributes: 0,
  invisibleCharacters: 0,
  unusedReferences: 0,
  truncatedCharacters: 0,
};

describe('the report on what was removed from the request', () => {
  it('counts what was removed, never quoting it', () => {
    expect(removedFromRequestLine({ ...none, htmlComments: 1, invisibleCharacters: 3 })).toBe(
      "From the request's text, fixloop removed 1 HTML comment and 3 invisible characters that the issue page does not show.",
    );
    expect(
      removedFromRequestLine({ ...none, hiddenElements: 2, attributes: 1, unusedReferences: 1, truncatedCharacters: 40 }),
    ).toBe(
      "From the request's text, fixloop removed 2 elements GitHub does not render, 1 tag attribute and 1 unused link reference that the issue page does not show, and cut 40 characters past the length cap.",
    );
    expect(removedFromRequestLine({ ...none, truncatedCharacters: 1 })).toBe(
      "From the request's text, fixloop cut 1 character past the length cap.",
    );
    expect(removedFromRequestLine(undefined)).toBeNull();
  });

  it('shows the line under the headline of the Markdown report, and nothing when nothing was removed', () => {
    const result = greenResult();
    expect(renderMarkdownReport(result)).not.toContain("From the request's text");
    result.request = { removed: { ...none, htmlComments: 1 } };
    expect(renderMarkdownReport(result)).toContain(
      "_From the request's text, fixloop removed 1 HTML comment that the issue page does not show._",
    );
  });
});
