'use strict';
// A test's code read from memory: a function of a test file turned back into its text
// (`Function.prototype.toString`, `String(fn)`, a template) by the repository's code, which reaches
// the test's own body as the caller of a sloppy-mode function (`fn.caller`), an argument, or a
// stack's frame. No file is opened, so the read watch (guard-reads.cjs) sees nothing; the text is
// the test, expected values included. Each listed test file's text is taken when the guard loads
// (before any repository code runs), with its spacing, semicolons and trailing commas dropped (jest's
// and vitest's transforms print a body again with their own), and a function's text found in one of
// them, read by a repository file that is not a test, is a `test_file_read`. Short texts (an empty
// arrow, a one-call body) are passed over: they occur anywhere. A suite larger than MAX_TOTAL is not
// watched this way (each text read would be sought in all of it).
const { readFileSync } = require('node:fs');
const { join } = require('node:path');

/** The shortest function text, as compared, that names a test's code rather than occurring anywhere. */
const MIN_TEXT = 40;
/** The longest function text compared. */
const MAX_TEXT = 50_000;
/** The most test text held and searched. */
const MAX_TOTAL = 4_000_000;

/** @param {string} text */
const compared = (text) =>
  text
    .replace(/\s+/g, '')
    .replace(/;/g, '')
    .replace(/,(?=[}\])])/g, '');

/**
 * Watches this realm's `Function.prototype.toString`; returns what watches another realm's (jest runs
 * each test file, and the code it loads, in a realm of its own).
 * @param {import('./guard-record.cjs').GuardRecord} record
 * @param {import('./guard-caller.cjs').Caller} who
 * @param {{ root: string, tests: string[] }} channel the repository and the test files the judge listed
 * @returns {(global: object) => void}
 */
function guardSourceText(record, { caller, fromDependency }, channel) {
  const tests = testTexts(channel.root, channel.tests);
  /** @type {WeakSet<object>} the realms' `Function.prototype`s watched */
  const watched = new WeakSet();
  /** @param {object} global */
  const watchRealm = (global) => {
    const Fn = /** @type {{ Function?: { prototype?: { toString?: unknown } } }} */ (global).Function;
    const prototype = Fn && Fn.prototype;
    if (tests.length === 0 || !prototype || watched.has(prototype) || typeof prototype.toString !== 'function') return;
    watched.add(prototype);
    const own = /** @type {(this: unknown) => string} */ (prototype.toString);
    /** @this {unknown} */
    function toString() {
      // Asked of itself, it answers as the builtin it stands for.
      const text = own.call(this === toString ? own : this);
      // A runner's own read comes first (mocha keeps each test's text): a look at the few frames
      // above is cheaper than seeking the text in every test file.
      const sized = text.length >= MIN_TEXT && text.length <= MAX_TEXT && !fromDependency();
      const found = sized ? foundIn(tests, compared(text)) : null;
      const where = found ? caller(false) : null;
      if (found && where)
        record.event('test_file_read', where, `read a function of ${found} as text (\`Function.prototype.toString\`)`);
      return text;
    }
    Object.defineProperty(prototype, 'toString', { value: toString, writable: true, enumerable: false, configurable: true });
  };
  watchRealm(globalThis);
  return watchRealm;
}

/**
 * The test file whose text holds `sought`, if it is long enough to name a test's code.
 * @param {{ rel: string, text: string }[]} tests
 * @param {string} sought
 * @returns {string | null}
 */
function foundIn(tests, sought) {
  if (sought.length < MIN_TEXT) return null;
  const test = tests.find((t) => t.text.includes(sought));
  return test ? test.rel : null;
}

/**
 * The listed test files' texts, as compared; none when they are more than MAX_TOTAL in all.
 * @param {string} root
 * @param {string[]} rels
 * @returns {{ rel: string, text: string }[]}
 */
function testTexts(root, rels) {
  const texts = [];
  let total = 0;
  for (const rel of rels) {
    let text;
    try {
      text = readFileSync(join(root, rel), 'utf8');
    } catch {
      continue; // a listed file that is not there
    }
    total += text.length;
    if (total > MAX_TOTAL) return [];
    texts.push({ rel, text: compared(text) });
  }
  return texts;
}

module.exports = { guardSourceText };
