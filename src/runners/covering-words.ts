// The positional words of a test command that a focused selection makes redundant (pytest's
// covering-paths.ts, node's covering-arguments.ts): a path that holds a failing test's file would
// run every other test it holds too. Shared: where the runner's words start, which words are
// options, and which word is an option's value.

/**
 * `command` without the words after the one `startsAt` finds that `covers` takes, unless an option
 * before it may take it as its value: one with no `=` that `isFlag` does not know to take none
 * (unsure is kept).
 */
export function withoutCoveringWords(
  command: string,
  startsAt: (word: string) => boolean,
  covers: (word: string) => boolean,
  isFlag: (option: string) => boolean,
): string {
  const words = command.split(' ');
  const start = words.findIndex(startsAt);
  if (start < 0) return command;
  const kept = words.filter((word, index) => {
    if (index <= start || word === '' || word.startsWith('-') || !covers(word)) return true;
    const previous = words[index - 1] ?? '';
    return previous.startsWith('-') && !previous.includes('=') && !isFlag(previous);
  });
  return kept.join(' ');
}

/** A positional word as a repository path: no leading `./`, no trailing slash. */
export function asRelativePath(word: string): string {
  return word.replace(/^\.\//, '').replace(/\/+$/, '');
}

/** Whether `path` is one of `files` or a folder that holds one. */
export function holdsAny(path: string, files: readonly string[]): boolean {
  return path !== '' && files.some((file) => file === path || file.startsWith(`${path}/`));
}
