'use strict';
// What a child's command line reads of the tests beyond a test file it names (guard-children.cjs),
// for a program the guard cannot follow (it is not node): a folder that holds a test file (`grep -r x
// .`, `cp -r test /tmp/t`, `tar c src test`, `cat test/*`), a recursive search run with no folder (its
// working folder), and the repository's committed files through git (`git grep`, `git show HEAD:…`,
// `git cat-file`, `git archive`), the tests among them. Node children load the guard themselves.
const fs = require('node:fs');
const { basename, relative, resolve, sep } = require('node:path');

/** git's commands that print the content of committed files. */
const GIT_READS = new Set(['grep', 'show', 'cat-file', 'archive', 'blame', 'diff', 'format-patch', 'bundle']);
/** `git log`'s options that print the changes too. */
const LOG_PATCH = /^(-p|-u|--patch|-L.*)$/;
/** git's options that take a value as the next word. */
const GIT_VALUED = new Set(['-C', '-c', '--git-dir', '--work-tree', '--namespace']);
/** Searches that read every file under their working folder when given none. */
const SEARCHES = /^(grep|egrep|fgrep|rg|ag|ack)$/;
const RECURSIVE = /^(-[a-zA-Z]*[rR][a-zA-Z]*|--recursive|--dereference-recursive)$/;
/** Programs the guard follows itself: node, and the package managers that start it. */
const FOLLOWED = /^(node|nodejs|npm|npx|pnpm|yarn|corepack)$/;
const GLOB = /[*?[{]/;

/**
 * @param {unknown} file what the child runs
 * @param {unknown} args its arguments (argv, the program's own name first), where known
 * @param {string} cwd its working folder
 * @param {string} root the repository
 * @param {readonly string[]} tests the test files, relative to `root`
 * @returns {string | null} what it reads of the tests, for people; null: nothing the guard can tell
 */
function childReadsTests(file, args, cwd, root, tests) {
  const given = Array.isArray(args) ? args.map(String) : [];
  // spawn's arguments start with the program's own name; execSync's are its command alone.
  if (given[0] === String(file)) given.shift();
  const words = [String(file), ...given].flatMap((arg) => arg.split(/[\s"'`;|&()<>]+/).filter((w) => w !== ''));
  if (FOLLOWED.test(basename(String(file)))) return null;
  const inside = (/** @type {string} */ path) => {
    const rel = relative(root, path);
    return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !rel.startsWith(sep)) ? rel.split(sep).join('/') : null;
  };
  const holdsTests = (/** @type {string} */ rel) => rel === '' || tests.some((test) => test.startsWith(`${rel}/`));
  const gitAt = words.findIndex((w) => basename(w) === 'git');
  if (gitAt >= 0) {
    const command = gitCommand(words.slice(gitAt + 1));
    const reads = command !== null && (GIT_READS.has(command) || (command === 'log' && words.some((w) => LOG_PATCH.test(w))));
    if (reads && inside(resolve(cwd)) !== null) return `the repository's files through \`git ${command}\``;
  }
  for (const word of words.slice(1)) {
    if (word.startsWith('-')) continue;
    const cut = word.split('/').findIndex((part) => GLOB.test(part));
    const path = cut < 0 ? word : word.split('/').slice(0, cut).join('/') || '.';
    const rel = inside(resolve(cwd, path));
    if (rel !== null && holdsTests(rel) && isFolder(resolve(cwd, path)))
      return `the folder \`${rel || '.'}\`, which holds the tests`;
  }
  const searched = words.findIndex((w) => SEARCHES.test(basename(w)));
  if (searched >= 0 && (basename(words[searched] ?? '') !== 'grep' || words.some((w) => RECURSIVE.test(w)))) {
    const rel = inside(resolve(cwd));
    if (rel !== null && holdsTests(rel)) return `its working folder \`${rel || '.'}\`, which holds the tests, searched whole`;
  }
  return null;
}

/**
 * git's command among the words after `git`, past its own options.
 * @param {string[]} words
 */
function gitCommand(words) {
  for (let i = 0; i < words.length; i++) {
    const word = words[i] ?? '';
    if (GIT_VALUED.has(word)) i++;
    else if (!word.startsWith('-')) return word;
  }
  return null;
}

/** @param {string} path */
function isFolder(path) {
  try {
    return fs.statSync(path).isDirectory();
  } catch {
    return false;
  }
}

module.exports = { childReadsTests };
