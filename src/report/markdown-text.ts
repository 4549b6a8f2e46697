// The report's shared Markdown sections (verification, assessment, red → green, spend, run details)
// turned into terminal text: the same words, without the markup a terminal shows raw. Handles the
// subset render-markdown.ts and assessment-section.ts write: headings, `<details>` blocks, tables,
// inline code, bold and italic lines.
import { stripVTControlCharacters } from 'node:util';
import type { TerminalStyle } from './terminal-style.ts';

/** Inline markup: `code` (any fence length), **bold**, and a line that is _all italic_. */
export function inlineText(line: string, style: TerminalStyle): string {
  const italic = /^_(.+)_$/.exec(line.trim());
  if (italic?.[1]) return style.dim(inlineText(italic[1], style));
  return line
    .replace(/(`+) ?([^`]|[^`].*?[^`]) ?\1(?!`)/g, (_, _fence: string, text: string) => style.code(text))
    .replace(/\*\*(.+?)\*\*/g, (_, text: string) => style.strong(text));
}

function cells(row: string): string[] {
  // `\|` inside a cell is an escaped bar, not a boundary.
  return row
    .trim()
    .replace(/^\||\|$/g, '')
    .split(/(?<!\\)\|/)
    .map((c) => c.trim().replace(/\\\|/g, '|'));
}

const visibleLength = (text: string) => stripVTControlCharacters(text).length;

/** A Markdown table as aligned columns, its header in bold; the `| --- |` row dropped. */
function table(rows: string[], style: TerminalStyle): string[] {
  const parsed = rows
    .filter((r) => !/^\|?(\s*:?-+:?\s*\|)+\s*:?-*:?\s*$/.test(r))
    .map((r) => cells(r).map((c) => inlineText(c, style)));
  const widths: number[] = [];
  for (const row of parsed) row.forEach((c, i) => (widths[i] = Math.max(widths[i] ?? 0, visibleLength(c))));
  return parsed.map((row, n) => {
    const line = row.map((c, i) => (i === row.length - 1 ? c : c + ' '.repeat((widths[i] ?? 0) - visibleLength(c)))).join('  ');
    return `  ${n === 0 ? style.heading(line) : line}`.trimEnd();
  });
}

export function markdownLinesToText(lines: string[], style: TerminalStyle): string[] {
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (line.startsWith('|')) {
      const rows: string[] = [];
      for (; i < lines.length && (lines[i] ?? '').startsWith('|'); i++) rows.push(lines[i] ?? '');
      i--;
      out.push(...table(rows, style));
      continue;
    }
    const summary = /^<details><summary>(.*)<\/summary>$/.exec(line);
    if (summary) out.push(style.heading(summary[1] ?? ''));
    else if (line === '</details>') continue;
    else if (/^#{2,4} /.test(line)) out.push(style.heading(line.replace(/^#+ /, '')));
    else out.push(inlineText(line, style));
  }
  return out;
}
