// Code the probe inserts right after a directive (`'use strict'`) shares its line, so no line moves:
// a directive written without its semicolon (a no-semicolon style) would run into that code, and the
// file would no longer parse.
import type { JsNode } from '../../core/js-tree.ts';

/** `;` when the directive's own text does not end with one, else nothing. */
export function directiveEnd(source: string, directive: JsNode): string {
  return source.slice(directive.start, directive.end).trimEnd().endsWith(';') ? '' : ';';
}
