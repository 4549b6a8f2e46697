'use strict';
// The record of one process (or worker thread), `<pid>.json` or `<pid>t<thread>.json` in the
// records folder: written at load (not complete), again at each event and test end, and at exit.
// vitest's pool ends its workers without an exit (threads terminated, forks killed), so a worker's
// last write is at its last test's end; a record is complete when the process reached its exit, or
// when it is a worker with no test left running, and in both cases no early exit was recorded.
// Only a process that runs tests (the guard saw a runner in it) keeps a record of its own; another (a
// CLI a test starts, npm) writes one only when something it did is an event, and its exit is its own.
const { writeFileSync, renameSync } = require('node:fs');
const { join } = require('node:path');
const { threadId, isMainThread } = require('node:worker_threads');

const stringify = JSON.stringify;

function createRecord(channel) {
  const id = isMainThread ? String(process.pid) : `${process.pid}t${threadId}`;
  const file = join(channel.dir, `${id}.json`);
  const temporary = join(channel.dir, `.${id}.tmp`);
  const state = { runs: false, exited: false, worker: false, running: 0, ended: null, tests: null, events: [] };

  const complete = () => !state.events.some((e) => e.kind === 'exit') && (state.exited || (state.worker && state.running === 0));
  const write = () => {
    if (!state.runs && state.events.length === 0) return;
    const record = { runner: channel.runner, pid: process.pid, thread: threadId, complete: complete(), exitCode: state.ended, tests: state.tests, events: state.events };
    try {
      // Whole or not at all: a reader never sees half a record.
      writeFileSync(temporary, stringify(record));
      renameSync(temporary, file);
    } catch {
      // A folder that cannot be written leaves the record missing: the judge counts that as missing evidence.
    }
  };

  return {
    /** Notes what the code did, and writes it at once: the process may end right after. */
    event(kind, where, detail) {
      if (state.events.length >= 100) return; // enough to judge; a loop of them must not fill the disk
      if (state.events.some((e) => e.kind === kind && e.file === where.file && e.line === where.line && e.detail === detail)) return;
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
    /** A test ended, with its outcome: counted, and the record written. */
    testEnded(outcome) {
      state.running = Math.max(0, state.running - 1);
      state.tests = state.tests || { passed: 0, failed: 0, skipped: 0 };
      state.tests[outcome]++;
      // A process that reaches its exit writes its counts there; a worker may never reach it.
      if (state.worker) write();
    },
    exited(code) {
      state.exited = true;
      state.ended = code;
      write();
    },
    write,
  };
}

module.exports = { createRecord };
