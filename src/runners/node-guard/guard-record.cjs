'use strict';
// The record of one process (or worker thread), `record-<key>.json` in the records folder, signed
// with the key the process claimed at load (guard-key.cjs): written at load (not complete, the key's
// claim answered), again at each event, and at exit.
// vitest's pool ends its workers without an exit (threads terminated, forks killed), so a worker
// writes its record when it has run the files it was given (and again when it starts a test after
// that); a record is complete when the process reached its exit, or when it is a worker that has run
// its files with no test left running, and in both cases no early exit was recorded. (A worker once
// wrote at each test's end: a few milliseconds each, of the file system's, and the whole record each
// time once it named its tests.)
// A process that runs tests (the guard saw a runner in it) is judged by its record; another (a CLI a
// test starts) only by its events, and its exit is its own. A process that found no key left (more
// processes than fixloop handed keys to) writes `unkeyed-<pid>.json`, which the judge counts as
// missing evidence.
const { writeFileSync, renameSync } = require('node:fs');
const { join } = require('node:path');
const { threadId, isMainThread } = require('node:worker_threads');
const { claimKey } = require('./guard-key.cjs');

const stringify = JSON.stringify;

/**
 * Where the code that did it is: a file of the repository (relative) and its line; both null when
 * nobody's in particular (a class found replaced at a test's end), `unknown` when the stack could not say.
 * @typedef {{ file: string | null, line: number | null, unknown?: boolean }} Where
 */
/** @typedef {{ kind: string, file: string | null, line: number | null, detail: string }} GuardEvent */
/** @typedef {'passed' | 'failed' | 'skipped'} Outcome */
/**
 * A test the process saw end (src/core/guard-record.ts's GuardTestCase), with its body as the guard's
 * wrapper saw it (guard-bodies.cjs) where it wraps the runner's tests.
 * @typedef {{ file: string | null, titles: string[], outcome: Outcome, message?: string, stack?: string,
 *   body?: 'returned' | 'raised' | 'unseen', raised?: string }} GuardTestCase
 */
/** @typedef {ReturnType<typeof createRecord>} GuardRecord */

/**
 * @typedef {{ runs: boolean, exited: boolean, worker: boolean, running: number, ended: number | null,
 *   done: boolean, events: GuardEvent[] }} State
 */

/**
 * @param {import('./guard-channel.cjs').Channel} channel
 */
function createRecord(channel) {
  const id = isMainThread ? String(process.pid) : `${process.pid}t${threadId}`;
  const key = claimKey(channel.dir);
  const file = join(channel.dir, key ? `record-${key.index}.json` : `unkeyed-${id}.json`);
  const temporary = join(channel.dir, `.${id}.tmp`);
  /** @type {State} */
  const state = { runs: false, exited: false, worker: false, running: 0, ended: null, done: false, events: [] };
  const cases = testCases();

  const write = () => {
    const payload = payloadOf(channel.runner, state, cases);
    try {
      // Whole or not at all: a reader never sees half a record.
      writeFileSync(temporary, key ? stringify({ payload, mac: key.sign(payload) }) : payload);
      renameSync(temporary, file);
    } catch {
      // A folder that cannot be written leaves the record missing: the judge counts that as missing evidence.
    }
  };
  // The key's claim answered at once: a key taken and never answered reads as a removed record.
  write();

  return {
    /**
     * Notes what the code did, and writes it at once: the process may end right after.
     * @param {string} kind
     * @param {Where} where
     * @param {string} detail
     */
    event(kind, where, detail) {
      if (state.events.length >= 100) return; // enough to judge; a loop of them must not fill the disk
      if (state.events.some((e) => e.kind === kind && e.file === where.file && e.line === where.line && e.detail === detail))
        return;
      state.events.push({ kind, file: where.file, line: where.line, detail });
      write();
    },
    /** The guard saw a runner in this process: it runs tests, and its record is evidence. */
    markRunner() {
      if (state.runs) return;
      state.runs = true;
      write();
    },
    runsTests: () => state.runs,
    /** This process runs tests for a runner that ends its workers without an exit. */
    markWorker() {
      state.worker = true;
      this.markRunner();
    },
    testStarted() {
      state.running++;
      // A worker given more files: its record no longer says it is done.
      if (state.done) {
        state.done = false;
        write();
      }
    },
    /** A suite of node's runner told started (testStarted) has ended: it holds no test still running. */
    suiteEnded() {
      state.running = Math.max(0, state.running - 1);
    },
    /** A worker has run the files it was given: its record is written, complete when no test is left running. */
    workerDone() {
      state.done = true;
      write();
    },
    /**
     * A test ended, with its outcome: counted and named (written at exit, or when a worker is done).
     * A test that ends again replaces its earlier case.
     * @param {GuardTestCase} testCase
     * @param {object | null} key the runner's object for the test
     * @param {boolean} started whether its start was told (testStarted)
     */
    testEnded(testCase, key, started) {
      if (started) state.running = Math.max(0, state.running - 1);
      // A runner ended a test here, however it was loaded (an ES module is no `require`'s).
      state.runs = true;
      cases.add(testCase, key);
    },
    /** @param {number} code */
    exited(code) {
      state.exited = true;
      state.ended = code;
      write();
    },
    write,
  };
}

/**
 * The record as written: complete when the process reached its exit, or is a worker that has run its
 * files with no test left running, and no early exit was recorded; with the cases of a process that
 * runs tests (absent elsewhere: it names none).
 * @param {string} runner
 * @param {State} state
 * @param {ReturnType<typeof testCases>} cases
 */
function payloadOf(runner, state, cases) {
  const complete =
    !state.events.some((e) => e.kind === 'exit') && (state.exited || (state.worker && state.done && state.running === 0));
  const record = {
    runner,
    pid: process.pid,
    thread: threadId,
    runs: state.runs,
    complete,
    exitCode: state.ended,
    tests: cases.counts(),
    events: state.events,
  };
  return state.runs ? `${stringify(record).slice(0, -1)},"cases":${cases.json()}}` : stringify(record);
}

/**
 * The tests a process saw end, counted by outcome and named: each one's case as written (JSON, made
 * once, however often the record is written), in the order they ended; a test that ends
 * again (`key`: a retry, an error reported after it passed) keeps its first place.
 */
function testCases() {
  /** @type {string[]} */
  const cases = [];
  /** @type {WeakMap<object, { index: number, outcome: Outcome }>} */
  const byKey = new WeakMap();
  /** @type {Record<Outcome, number> | null} */
  let tests = null;
  return {
    /**
     * @param {GuardTestCase} testCase
     * @param {object | null} key
     */
    add(testCase, key) {
      tests = tests || { passed: 0, failed: 0, skipped: 0 };
      const earlier = key ? byKey.get(key) : undefined;
      if (earlier) {
        tests[earlier.outcome]--;
        cases[earlier.index] = stringify(testCase);
        earlier.outcome = testCase.outcome;
      } else {
        if (key) byKey.set(key, { index: cases.length, outcome: testCase.outcome });
        cases.push(stringify(testCase));
      }
      tests[testCase.outcome]++;
    },
    /** The counts by outcome; null before any test ended. */
    counts: () => tests,
    json: () => `[${cases.join(',')}]`,
  };
}

module.exports = { createRecord };
