'use strict';
// The JavaScript probe's runtime (DESIGN.md §3.3): what an instrumented function calls on every call.
// It records the call the suite made (canonical arguments before, result or error, arguments and a
// method's receiver after when the call changed them, the caller's file and line), then calls the
// function again on inputs generated around it, and appends the records as JSON lines to the record
// file (probe-record.ts).
//
// probe-bundle.ts inlines this file, with probe-canon.cjs and probe-inputs.cjs, into every
// instrumented file: the code under test may run under any runner, loader or sandbox, in ESM or
// CommonJS, and must find its probe without a path to resolve or an environment variable to read.
// The first instrumented file that runs in a realm installs it on globalThis; the others reuse it.
//
// A probe must never change what the program does: every step of its own is in try/catch, and when
// anything fails it just runs the original body. It never throws an error of its own, and rethrows
// the function's own error unchanged.
//
// Each call also keeps its path: the markers of the function's statements and branches that ran
// while it was the innermost probed call (probe-path.ts), recorded as `path` for the comparison.
const { argsText, canon, thrownText } = require('./probe-canon.cjs');
const { allPlainData, copy, neighbours } = require('./probe-inputs.cjs');

const ASYNC = 1;
const METHOD = 2;
const PER_SUITE_CALL = 40;
const BASE_KEYS = 25;
const PER_PROCESS = 4000;
// The caller is part of what a suite call is compared by (a method with no arguments is called by
// many tests): its stack is read for this many calls of one function and arguments.
const STACKS_PER_KEY = 200;
const MAX_KEYS = 20000;
const SHARED = Symbol.for('fixloop.assess.probe');

/** Per probed function: what the suite passed, and what was already generated. */
function fnState(state, id) {
  let fn = state.fns.get(id);
  if (!fn) {
    fn = { suiteKeys: new Set(), generatedKeys: new Set(), bases: new Set(), stacks: new Map(), nullable: new Map() };
    state.fns.set(id, fn);
  }
  return fn;
}

function addCapped(set, key) {
  if (set.size < MAX_KEYS) set.add(key);
}

function dirname(path) {
  return path.replace(/[\\/][^\\/]*$/, '');
}

function deepStack() {
  const limit = Error.stackTraceLimit;
  try {
    Error.stackTraceLimit = 40;
    return String(new Error().stack);
  } finally {
    Error.stackTraceLimit = limit;
  }
}

/** Frames of a call's stack kept in `testLines`: a helper in a test file, the test that called it, and above. */
const TEST_LINES = 4;

/**
 * The repository's test files (relative paths), as the assessment wrote them beside the record file
 * (`test-files.json`), read once per record file; empty when there is none.
 */
function testFilesOf(file) {
  const { writer } = file;
  if (writer.testFiles === undefined) {
    writer.testFiles = new Set();
    try {
      const listed = writer.fs ? JSON.parse(writer.fs.readFileSync(`${dirname(writer.recordFile)}/test-files.json`, 'utf8')) : [];
      if (Array.isArray(listed)) for (const path of listed) if (typeof path === 'string') writer.testFiles.add(path);
    } catch {
      // No list: the callers are told by the first frame alone.
    }
  }
  return writer.testFiles;
}

/**
 * Who made the call. `site`, `test/url.test.ts:41`: the first stack frame outside the probed file,
 * node_modules and Node itself (a suite call is compared by it). `testLines`: the frames in the
 * repository's test files, innermost first: code between the test and the probed function (a
 * bundle the build generated, a helper) hides the test from `site`, and it is the test that tells
 * a failing test's call from a passing one's.
 */
function callerOf(file, id) {
  const probed = id.slice(0, id.indexOf('#'));
  const tests = testFilesOf(file);
  const found = { site: undefined, testLines: [] };
  for (const line of deepStack().split('\n').slice(1)) {
    // The runtime's own frames run in code compiled by `new Function`: `eval at …, <anonymous>:1:2`.
    if (line.includes('eval at')) continue;
    const inner = line.trim().endsWith(')')
      ? line.slice(line.lastIndexOf('(') + 1, -1)
      : line.trim().replace(/^at (async )?/, '');
    const match = /^(.*):(\d+):\d+$/.exec(inner);
    if (!match) continue;
    let path = match[1];
    if (path.startsWith('file://')) path = decodeURIComponent(new URL(path).pathname);
    const local = path.startsWith('/') || /^[A-Za-z]:[\\/]/.test(path);
    if (!local || /[\\/]node_modules[\\/]/.test(path) || path.replace(/\\/g, '/').endsWith(`/${probed}`)) continue;
    const relative = path.startsWith(`${file.root}/`) ? path.slice(file.root.length + 1) : path;
    const at = `${relative}:${match[2]}`;
    if (found.site === undefined) found.site = at;
    if (tests.has(relative.replace(/\\/g, '/')) && !found.testLines.includes(at)) found.testLines.push(at);
    if (tests.size === 0 || found.testLines.length >= TEST_LINES) break;
  }
  return found;
}

function isPlainThis(state, file, thisArg) {
  if (thisArg === undefined || thisArg === null || thisArg === state.g) return true;
  if (file.mod && typeof file.mod === 'object' && thisArg === file.mod.exports) return true;
  return Object.prototype.toString.call(thisArg) === '[object Module]';
}

/** What the wrapper needs to finish the record once the call is over; null when not recorded. */
function prepare(state, file, call) {
  const args = Array.prototype.slice.call(call.argsLike);
  const key = argsText(args);
  const fn = fnState(state, call.id);
  const stacks = fn.stacks.get(key) || 0;
  let caller = null;
  if (stacks < STACKS_PER_KEY) {
    if (fn.stacks.size < MAX_KEYS) fn.stacks.set(key, stacks + 1);
    caller = callerOf(file, call.id);
  }
  args.forEach((arg, index) => {
    if (arg !== null && arg !== undefined) return;
    const seen = fn.nullable.get(index) || [];
    if (!seen.includes(arg)) fn.nullable.set(index, [...seen, arg]);
  });
  addCapped(fn.suiteKeys, key);
  let self = null;
  if (!(call.flags & METHOD) && typeof call.self === 'function' && isPlainThis(state, file, call.thisArg) && allPlainData(args)) {
    const value = call.self();
    if (typeof value === 'function') self = value;
  }
  // A method's receiver as it was: what the call did to `this` (a parser that builds its state) is a result too.
  const receiver = isReceiver(state, file, call.thisArg) ? canon(call.thisArg) : undefined;
  return { fn, file, call, args, key, caller, self, snapshot: self ? copy(args) : null, receiver };
}

/** An object a method was called on: not the global, the module or its exports (a plain function's `this`). */
function isReceiver(state, file, thisArg) {
  return typeof thisArg === 'object' && thisArg !== null && !isPlainThis(state, file, thisArg);
}

function outOf(settled) {
  if ('exited' in settled) return { threw: `process.exit(${canon(settled.exited)})` };
  return 'threw' in settled ? { threw: thrownText(settled.threw) } : { returned: canon(settled.returned) };
}

/** One append per batch: several processes (a runner's workers) write the same file. */
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

/** A record of a call that is over: `settled` is `{ returned }`, `{ threw }` or `{ exited }` (the process ended inside it). */
function record(before, kind, key, args, settled, base, path) {
  const entry = { fn: before.call.id, args: key, kind };
  if (base !== undefined) entry.base = base;
  entry.out = outOf(settled);
  if (path) entry.path = Array.from(path).sort((a, b) => a - b);
  const after = argsText(args);
  if (after !== key) entry.after = after;
  if (kind === 'suite' && before.receiver !== undefined) {
    const receiver = canon(before.call.thisArg);
    if (receiver !== before.receiver) entry.thisAfter = receiver;
  }
  if (kind === 'suite' && before.caller && before.caller.site !== undefined) entry.site = before.caller.site;
  if (kind === 'suite' && before.caller && before.caller.testLines.length > 0) entry.testLines = before.caller.testLines;
  return entry;
}

/** Calls `onSettled` with `{ returned }` or `{ threw }` once a promise settles; never throws. */
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

/**
 * Runs `work` with the probe's own calls marked, so that nothing they reach records or generates;
 * `later` also marks what `work` starts and continues after an `await` (a generated async call).
 */
function quietly(state, work, later) {
  const was = state.busy;
  state.busy = true;
  try {
    return later && state.als ? state.als.run(true, work) : work();
  } finally {
    state.busy = was;
  }
}

/** One generated call: the function itself, through its wrapper (which sees the probe busy). */
function runGenerated(state, before, args, key) {
  const lines = [];
  let path = null;
  const finish = (settled) => quietly(state, () => record(before, 'generated', key, args, settled, before.key, path));
  let result;
  state.lastPath = null;
  try {
    result = quietly(state, () => Reflect.apply(before.self, before.call.thisArg, args), true);
  } catch (error) {
    path = state.lastPath;
    lines.push(finish({ threw: error }));
    return lines;
  }
  path = state.lastPath;
  if (before.call.flags & ASYNC && result && typeof result.then === 'function') {
    whenSettled(result, (settled) => write(before.file, [finish(settled)]));
    return lines;
  }
  lines.push(finish({ returned: result }));
  return lines;
}

/** The generated calls around one suite call (the first time the suite passes these arguments). */
function generate(state, before) {
  const { fn } = before;
  if (!before.snapshot || fn.bases.has(before.key) || fn.bases.size >= BASE_KEYS) return [];
  fn.bases.add(before.key);
  const candidates = quietly(state, () => neighbours(before.snapshot, fn.nullable));
  const lines = [];
  let made = 0;
  for (const args of candidates) {
    if (made >= PER_SUITE_CALL || state.shared.generated >= PER_PROCESS) break;
    const key = quietly(state, () => argsText(args));
    if (fn.suiteKeys.has(key) || fn.generatedKeys.has(key)) continue;
    addCapped(fn.generatedKeys, key);
    made++;
    state.shared.generated++;
    lines.push(...runGenerated(state, before, args, key));
  }
  return lines;
}

/** After the suite's call: its record, then the generated calls around it, in one append. */
function finishSuiteCall(state, before, settled, path) {
  try {
    const lines = [quietly(state, () => record(before, 'suite', before.key, before.args, settled, undefined, path))];
    lines.push(...generate(state, before));
    write(before.file, lines);
  } catch {
    // The probe failed after the call: the call's own result stands.
  }
}

/**
 * Runs the body as the innermost probed call: the markers that run meanwhile go to its path, those
 * of an async body after an `await` too (its frame is found through AsyncLocalStorage; without it,
 * the path is what ran before the first `await`). The path (a Set, still growing while an async
 * body runs) is left in `state.lastPath`.
 */
function inFrame(state, id, body, argsLike) {
  const frame = { id, path: new Set() };
  const depth = state.frames.length;
  state.frames.push(frame);
  try {
    return state.frameStore
      ? state.frameStore.run(frame, () => body.apply(undefined, argsLike))
      : body.apply(undefined, argsLike);
  } finally {
    state.frames.length = depth;
    state.lastPath = frame.path;
  }
}

/** A marker ran: its number joins the innermost call's path when that call is of its function. */
function mark(state, id, k) {
  const frame = state.frameStore ? state.frameStore.getStore() : state.frames[state.frames.length - 1];
  if (frame !== undefined && frame.id === id) frame.path.add(k);
}

/**
 * The process ends (process.exit) inside probed calls: each one still on the stack gets its record,
 * the exit code as its outcome. A CLI's parser that exits on an unknown option, and the fix that
 * lets it return, otherwise leave one version with no record of the call at all.
 */
function recordExit(pending, code) {
  for (const { state, before, file } of pending) {
    try {
      write(file, [quietly(state, () => record(before, 'suite', before.key, before.args, { exited: code }, undefined, null))]);
    } catch {
      // The process is ending: a record that cannot be made is lost.
    }
  }
}

/** The wrapper's entry point: `body` is the function's original code, bound to its call. */
function probeCall(state, file, call, body) {
  if (state.busy || (state.als && state.als.getStore() === true)) return inFrame(state, call.id, body, call.argsLike);
  let before = null;
  try {
    before = quietly(state, () => prepare(state, file, call));
  } catch {
    before = null;
  }
  if (!before) return inFrame(state, call.id, body, call.argsLike);
  let result;
  const { pending } = state.shared;
  const depth = pending.length;
  pending.push({ state, before, file });
  try {
    result = inFrame(state, call.id, body, call.argsLike);
  } catch (error) {
    finishSuiteCall(state, before, { threw: error }, state.lastPath);
    throw error;
  } finally {
    pending.length = depth;
  }
  const path = state.lastPath;
  if (call.flags & ASYNC && result && typeof result.then === 'function') {
    whenSettled(result, (settled) => finishSuiteCall(state, before, settled, path));
  } else {
    finishSuiteCall(state, before, { returned: result }, path);
  }
  return result;
}

/** The arrow that stands for a program's arrow, with that arrow's `length` and `name` (a handler's arity is read). */
function keepShape(fn, length, name) {
  try {
    if (fn.length !== length) Object.defineProperty(fn, 'length', { value: length, configurable: true });
    if (fn.name !== name) Object.defineProperty(fn, 'name', { value: name, configurable: true });
  } catch {
    // A function whose shape cannot be set still runs as it did.
  }
  return fn;
}

/**
 * The runtime of one realm. `fs` is node:fs (or null: nothing is written), `builtin` Node's
 * `process.getBuiltinModule` when it exists (for AsyncLocalStorage and the real process object,
 * shared by every realm of the process, where the per-process cap is kept).
 */
function install(fs, g, builtin) {
  let als = null;
  let frameStore = null;
  let shared = { generated: 0, pending: [], exitHooked: false };
  try {
    const hooks = builtin ? builtin('node:async_hooks') : null;
    if (hooks && hooks.AsyncLocalStorage) {
      als = new hooks.AsyncLocalStorage();
      frameStore = new hooks.AsyncLocalStorage();
    }
    const proc = builtin ? builtin('node:process') : g.process;
    if (proc) shared = proc[SHARED] || (Object.defineProperty(proc, SHARED, { value: shared, configurable: true }), shared);
    // One listener per process, whatever the number of realms (jest makes one per test file); the
    // calls on the stack are the process's too, of whichever realm.
    if (proc && !shared.exitHooked) {
      shared.exitHooked = true;
      proc.on('exit', (code) => recordExit(shared.pending.splice(0), code));
    }
  } catch {
    // Without them the probe still records: nested async calls of a generated call may show as suite calls.
  }
  const state = { g, als, frameStore, shared, busy: false, fns: new Map(), frames: [], lastPath: null };
  const writers = new Map();
  return {
    /**
     * The probe of one instrumented file. The record file sits one folder below the checkout's root
     * (`<root>/.fixloop-probe/records.jsonl`): sites are written relative to that root.
     */
    file(recordFile, mod) {
      let writer = writers.get(recordFile);
      if (!writer) {
        writer = { fs, recordFile, ready: false };
        writers.set(recordFile, writer);
      }
      const file = { writer, root: dirname(dirname(recordFile)), mod };
      return {
        c(id, thisArg, argsLike, self, flags, body) {
          return probeCall(state, file, { id, thisArg, argsLike, self, flags }, body);
        },
        l(id, k) {
          mark(state, id, k);
        },
        k: keepShape,
      };
    },
  };
}

module.exports = { install };
