// How fixloop parses a JavaScript or TypeScript file, for every stage that asks: the judge's checks,
// the assessment and the repair engine's templates, all through src/core/js-tree.ts. One
// configuration, so they never disagree on whether a file parses: a file the repair engine edits is
// a file the judge can read, and back. Only @babel/parser here: the tree and its walk are js-tree's.
import { parse, type ParserPlugin } from '@babel/parser';

/** The file names parsed as JavaScript or TypeScript: .js .mjs .cjs .jsx .ts .mts .cts .tsx. */
export const JS_SOURCE = /\.(c|m)?(j|t)sx?$/;

/**
 * TypeScript by extension; JSX in every JavaScript file (React projects keep it in .js) and in .tsx,
 * never in .ts, where `<T>x` is a type assertion. Decorators everywhere: a decorated class is
 * ordinary code in TypeScript projects and in Babel-built JavaScript ones.
 */
export function jsParserPlugins(file: string): ParserPlugin[] {
  const ts = /\.(c|m)?tsx?$/.test(file);
  const jsx = /\.(c|m)?(jsx|tsx)$/.test(file) || /\.(c|m)?js$/.test(file);
  return [...(ts ? (['typescript'] as const) : []), ...(jsx ? (['jsx'] as const) : []), 'decorators'];
}

/**
 * The program node, or null when the file parses neither as a module nor as a script: the one
 * parse/no-parse verdict of fixloop. The extension does not tell a module from a CommonJS script
 * (`.js` is either), so a module is tried first, then a script; `return` at the top level is
 * accepted in both (a CommonJS file may return early), `await` in a module.
 *
 * Errors the parser can recover from (a duplicate declaration, a TypeScript rule Babel checks and a
 * type-stripping loader does not) leave the file parsed: the judge must read every file that may
 * run, so a patch cannot hide an exit behind a construct Babel dislikes, and a repair candidate that
 * does not run is rejected by its test run anyway.
 */
export function parseJsProgram(file: string, source: string): object | null {
  for (const sourceType of ['module', 'script'] as const) {
    try {
      const ast = parse(source, {
        sourceType,
        plugins: jsParserPlugins(file),
        errorRecovery: true,
        allowReturnOutsideFunction: true,
        allowAwaitOutsideFunction: sourceType === 'module',
      });
      return ast.program;
    } catch {
      // Try the other source type, then give up.
    }
  }
  return null;
}
