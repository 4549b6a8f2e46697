// `edit_file`'s rule: the old text must occur exactly once, so an edit never lands in the wrong place.

export type EditResult = { ok: true; content: string } | { ok: false; reason: string };

export function replaceExactlyOnce(content: string, oldText: string, newText: string): EditResult {
  if (oldText.length === 0) return { ok: false, reason: 'old_text is empty; use write_file to create a file' };
  const first = content.indexOf(oldText);
  if (first === -1)
    return {
      ok: false,
      reason: 'old_text was not found in the file (it must match exactly, whitespace included); read the file again',
    };
  const count = countOccurrences(content, oldText);
  if (count > 1) return { ok: false, reason: `old_text occurs ${count} times; include more surrounding lines so it is unique` };
  return { ok: true, content: content.slice(0, first) + newText + content.slice(first + oldText.length) };
}

function countOccurrences(content: string, text: string): number {
  let count = 0;
  for (let at = content.indexOf(text); at !== -1; at = content.indexOf(text, at + 1)) count++;
  return count;
}
