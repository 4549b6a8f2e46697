// Where a focused `node --test` command takes its selection: after node's own options, before the
// first positional argument. node reads every word after its first file as arguments for the tests,
// not for itself: an option of the command's own that followed `--test` (`--import tsx`), once a
// selected file is written before it, is silently dropped, and a pattern written after a file
// selects nothing.
import { isNodeFlag } from './node-flags.ts';

const TEST_OPTION = /\s--test(?![-\w])/;
/** A shell word, quotes kept whole: `--test-name-pattern "a b"` is two words. */
const WORD = /(?:"[^"]*"|'[^']*'|\S)+/g;

/**
 * The index in `command` just after the last of node's options that follow `--test` (an option's
 * value included), where a selection goes; null when the command has no `--test`.
 */
export function nodeOptionsEnd(command: string): number | null {
  const test = TEST_OPTION.exec(command);
  if (!test) return null;
  const base = test.index + test[0].length;
  let end = base;
  let valueNext = false;
  for (const word of command.slice(base).matchAll(WORD)) {
    const text = word[0];
    const isOption = text.startsWith('-');
    if (!isOption && !valueNext) break;
    end = base + word.index + text.length;
    valueNext = isOption && !isNodeFlag(text);
  }
  return end;
}
