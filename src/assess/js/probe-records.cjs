'use strict';
// The records of the JavaScript probe (probe-runtime.cjs): what one call gave, as a JSON line of the
// record file (probe-record.ts), and the appends that write them. Part of the inlined probe runtime.
const { argsText, canon, thrownText } = require('./probe-canon.cjs');
const { withChange } = require('./probe-fields.cjs');

/**
 * One record file, shared by every instrumented file of a realm that writes to it.
 * @typedef {object} Writer
 * @property {typeof import('node:fs') | null} fs node:fs, or null: nothing is written.
 * @property {string} recordFile
 * @property {boolean} ready Whether the record file's folder was made.
 * @property {Set<string>} [testFiles] The repository's test files, once read (probe-caller.cjs).
 */

/**
 * The probe of one instrumented file, as the runtime keeps it.
 * @typedef {object} ProbeFile
 * @property {Writer} writer
 * @property {string} root The checkout's root, the folder above the record file's.
 * @property {unknown} mod The file's CommonJS `module` (undefined in an ES module).
 * @property {import('./probe-inputs.cjs').ChangeValues | null} values What the patches' changed lines name (change-values.ts).
 * @property {boolean} generates Whether calls are generated around the suite's (probe-checkout.ts turns them off for a run again).
 * @property {boolean} generatesNested And around calls of functions nested in another (turned off first).
 */

/** @typedef {{ returned: unknown } | { threw: unknown } | { exited: unknown }} Settled */

/**
 * One line of the record file (probe-record.ts's ProbeRecord), its keys in the order written.
 * @typedef {object} Entry
 * @property {string} fn
 * @property {string} args
 * @property {'suite' | 'generated'} kind
 * @property {string} [base]
 * @property {{ threw: string } | { returned: string }} [out]
 * @property {number[]} [path]
 * @property {string} [after]
 * @property {string} [thisAfter]
 * @property {string} [site]
 * @property {string[]} [testLines]
 * @property {string} [replay]
 * @property {string} [replayThis]
 */

/** @typedef {import('./probe-runtime.cjs').Before} Before */

/**
 * @param {string} path
 * @returns {string}
 */
function dirname(path) {
  return path.replace(/[\\/][^\\/]*$/, '');
}

/**
 * @param {Settled} settled
 * @returns {{ threw: string } | { returned: string }}
 */
function outOf(settled) {
  if ('exited' in settled) return { threw: `process.exit(${canon(settled.exited)})` };
  return 'threw' in settled ? { threw: thrownText(settled.threw) } : { returned: canon(settled.returned) };
}

/**
 * One append per batch: several processes (a runner's workers) write the same file.
 * @param {ProbeFile} file
 * @param {Entry[]} lines
 */
function write(file, lines) {
  const { writer } = file;
  if (lines.length === 0 || !writer.fs) return;
  try {
    if (!writer.ready) {
      writer.fs.mkdirSync(dirname(writer.recordFile), { recursive: true });
      writer.ready = true;
    }
    writer.fs.appendFileSync(writer.recordFile, lines.map((record) => `${JSON.stringify(record)}\n`).join(''));
  } catch {
    // A record that cannot be written is lost; the program goes on as it would have.
  }
}

/**
 * A record of a call that is over: `settled` is `{ returned }`, `{ threw }` or `{ exited }` (the process ended inside it).
 * @param {Before} before
 * @param {'suite' | 'generated'} kind
 * @param {string} key
 * @param {unknown[]} args
 * @param {Settled} settled
 * @param {string | undefined} base
 * @param {Set<number> | null} path
 * @param {{ thisArg: unknown }} [receiver] A generated call's own copy of the receiver (probe-held.cjs).
 * @param {string} [changed] The field a generated call set otherwise (probe-fields.cjs), as its key ends with it.
 * @returns {Entry}
 */
function record(before, kind, key, args, settled, base, path, receiver, changed) {
  /** @type {Entry} */
  const entry = { fn: before.call.id, args: key, kind };
  if (base !== undefined) entry.base = base;
  entry.out = outOf(settled);
  if (path) entry.path = Array.from(path).sort((a, b) => a - b);
  const after = withChange(argsText(args), changed);
  if (after !== key) entry.after = after;
  const own = kind === 'suite' ? before.call.thisArg : receiver?.thisArg;
  if (before.receiver !== undefined && (kind === 'suite' || receiver)) {
    const receiverAfter = canon(own);
    if (receiverAfter !== before.receiver) entry.thisAfter = receiverAfter;
  }
  if (kind === 'suite' && before.caller && before.caller.site !== undefined) entry.site = before.caller.site;
  if (kind === 'suite' && before.caller && before.caller.testLines.length > 0) entry.testLines = before.caller.testLines;
  if (kind === 'suite' && before.replay !== undefined) entry.replay = before.replay;
  if (kind === 'suite' && before.replay !== undefined && before.replayThis !== undefined) entry.replayThis = before.replayThis;
  return entry;
}

/**
 * Calls `onSettled` with `{ returned }` or `{ threw }` once a promise settles; never throws.
 * @param {PromiseLike<unknown>} promise
 * @param {(settled: Settled) => void} onSettled
 */
function whenSettled(promise, onSettled) {
  try {
    promise.then(
      (value) => onSettled({ returned: value }),
      (error) => onSettled({ threw: error }),
    );
  } catch {
    // A thenable that refuses a second listener: its result goes unrecorded.
  }
}

module.exports = { dirname, record, whenSettled, write };
