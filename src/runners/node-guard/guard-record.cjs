'use strict';
// The record of one process (or worker thread), `record-<key>.json` in the records folder, signed
// with the key the process claimed at load (guard-key.cjs): written at load (not complete, the key's
// claim answered), again at each event and test end, and at exit.
// vitest's pool ends its workers without an exit (threads terminated, forks killed), so a worker's
// last write is at its last test's end; a record is complete when the process reached its exit, or
// when it is a worker with no test left running, and in both cases no early exit was recorded.
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
/** @typedef {ReturnType<typeof createRecord>} GuardRecord */

/**
 * @param {import('./guard-channel.cjs').Channel} channel
 */
function createRecord(channel) {
  const id = isMainThread ? String(process.pid) : `${process.pid}t${threadId}`;
  const key = claimKey(channel.dir);
  const file = join(channel.dir, key ? `record-${key.index}.json` : `unkeyed-${id}.json`);
  const temporary = join(channel.dir, `.${id}.tmp`);
  /**
   * @type {{ runs: boolean, exited: boolean, worker: boolean, running: number, ended: number | null,
   *   tests: Record<Outcome, number> | null, events: GuardEvent[] }}
   */
  const state = { runs: false, exited: false, worker: false, running: 0, ended: null, tests: null, events: [] };

  const complete = () => !state.events.some((e) => e.kind === 'exit') && (state.exited || (state.worker && state.running === 0));
  const write = () => {
    const record = {
      runner: channel.runner,
      pid: process.pid,
      thread: threadId,
      runs: state.runs,
      complete: complete(),
      exitCode: state.ended,
      tests: state.tests,
      events: state.events,
    };
    const payload = stringify(record);
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
    },
    /**
     * A test ended, with its outcome: counted, and the record written.
     * @param {Outcome} outcome
     */
    testEnded(outcome) {
      state.running = Math.max(0, state.running - 1);
      state.tests = state.tests || { passed: 0, failed: 0, skipped: 0 };
      state.tests[outcome]++;
      // A process that reaches its exit writes its counts there; a worker may never reach it.
      if (state.worker) write();
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

module.exports = { createRecord };
