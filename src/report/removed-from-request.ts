// The report's line on what was removed from the request's text before any engine read it: counts
// only, so the report never repeats what was hidden (it may be the very orders that were dropped).
import type { RemovedFromRequest } from '../core/request-text.ts';

function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

function and(parts: string[]): string {
  return parts.length <= 1 ? (parts[0] ?? '') : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`;
}

/** "From the request's text, fixloop removed 1 HTML comment and 3 invisible characters …", or null. */
export function removedFromRequestLine(removed: RemovedFromRequest | undefined): string | null {
  if (!removed) return null;
  const hidden = [
    removed.htmlComments > 0 ? plural(removed.htmlComments, 'HTML comment', 'HTML comments') : '',
    removed.hiddenElements > 0
      ? plural(removed.hiddenElements, 'element GitHub does not render', 'elements GitHub does not render')
      : '',
    removed.attributes > 0 ? plural(removed.attributes, 'tag attribute', 'tag attributes') : '',
    removed.invisibleCharacters > 0 ? plural(removed.invisibleCharacters, 'invisible character', 'invisible characters') : '',
    removed.unusedReferences > 0 ? plural(removed.unusedReferences, 'unused link reference', 'unused link references') : '',
  ].filter(Boolean);
  const cut =
    removed.truncatedCharacters > 0
      ? `cut ${plural(removed.truncatedCharacters, 'character', 'characters')} past the length cap`
      : '';
  if (hidden.length === 0) return cut ? `From the request's text, fixloop ${cut}.` : null;
  return `From the request's text, fixloop removed ${and(hidden)} that the issue page does not show${cut ? `, and ${cut}` : ''}.`;
}
