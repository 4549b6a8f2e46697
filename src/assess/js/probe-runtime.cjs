'use strict';
// The JavaScript probe's runtime (docs/design.md §3.3): what an instrumented function calls on every call.
// It records the call the suite made (probe-call.cjs: canonical arguments before, result or error,
// arguments and a method's receiver after when the call changed them, the caller's file and line:
// probe-caller.cjs), then calls the function again on inputs generated around it (probe-generated.cjs),
// and appends the records as JSON lines to the record file (probe-records.cjs, probe-record.ts). This
// file installs the runtime in a realm and hands each instrumented file its probe.
//
// probe-bundle.ts inlines this file, with its parts (probe-call.cjs, probe-generator.cjs, probe-caller.cjs, probe-plain.cjs, probe-change-inputs.cjs,
// probe-generated.cjs, probe-records.cjs, probe-replay.cjs, probe-canon.cjs, probe-text.cjs, probe-inputs.cjs), into every instrumented file: the code
// under test may run under any runner, loader or sandbox, in ESM or CommonJS, and must find its probe
// without a path to resolve or an environment variable to read. The first instrumented file that runs
// in a realm installs it on globalThis; the others reuse it.
//
// A probe must never change what the program does: every step of its own is in try/catch, and when
// anything fails it just runs the original body. It never throws an error of its own, and rethrows
// the function's own error unchanged.
//
// Each call also keeps its path: the markers of the function's statements and branches that ran
// while it was the innermost probed call (probe-path.ts), recorded as `path` for the comparison.
const { mark, probeCall } = require('./probe-call.cjs');
const { born, bornWith } = require('./probe-born.cjs');
const { probeGenerator } = require('./probe-generator.cjs');
const { quietly } = require('./probe-generated.cjs');
const { dirname, record, write } = require('./probe-records.cjs');
const { boundedCalls } = require('./probe-bounded.cjs');

/** @typedef {import('node:async_hooks').AsyncLocalStorage<boolean>} Quiet */
/** @typedef {import('./probe-call.cjs').Before} Before */
/** @typedef {import('./probe-call.cjs').Body} Body */
/** @typedef {import('./probe-call.cjs').Call} Call */
/** @typedef {import('./probe-call.cjs').FnState} FnState */
/** @typedef {import('./probe-call.cjs').Frame} Frame */
/** @typedef {import('./probe-records.cjs').ProbeFile} ProbeFile */
/** @typedef {import('./probe-records.cjs').Writer} Writer */

/**
 * What the realms of one process share: the generated calls so far, the suite calls on the stack.
 * @typedef {object} Shared
 * @property {number} generated
 * @property {Array<{ state: State, before: Before, file: ProbeFile }>} pending
 * @property {boolean} exitHooked
 */

/**
 * The runtime of one realm.
 * @typedef {object} State
 * @property {typeof globalThis} g
 * @property {Quiet | null} als Marks the probe's own calls across `await`.
 * @property {import('node:async_hooks').AsyncLocalStorage<Frame> | null} frameStore
 * @property {Shared} shared
 * @property {boolean} busy
 * @property {Map<string, FnState>} fns
 * @property {Frame[]} frames
 * @property {Set<number> | null} lastPath
 * @property {WeakMap<object, import('./probe-born.cjs').Birth>} births How each object of a probed method's class was made (probe-birth.ts).
 * @property {number} birthCount How many births were kept.
 * @property {((work: () => unknown) => import('./probe-bounded.cjs').Bounded) | null} bounded Runs a generated call within its time.
 */

const SHARED = Symbol.for('fixloop.assess.probe');
/** The file in the probe's folder that turns generated calls off (probe-checkout.ts's NO_GENERATED). */
const NO_GENERATED = 'no-generated-inputs';

/**
 * The process ends (process.exit) inside probed calls: each one still on the stack gets its record,
 * the exit code as its outcome. A CLI's parser that exits on an unknown option, and the fix that
 * lets it return, otherwise leave one version with no record of the call at all.
 * @param {Shared['pending']} pending
 * @param {unknown} code
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

/**
 * The arrow that stands for a program's arrow, with that arrow's `length` and `name` (a handler's arity is read).
 * @template {Function} F
 * @param {F} fn
 * @param {number} length
 * @param {string} name
 * @returns {F}
 */
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
 * @param {typeof import('node:fs') | null} fs
 * @param {typeof globalThis} g
 * @param {typeof process.getBuiltinModule | null} builtin
 */
function install(fs, g, builtin) {
  /** @type {Quiet | null} */
  let als = null;
  /** @type {State['frameStore']} */
  let frameStore = null;
  /** @type {Shared} */
  let shared = { generated: 0, pending: [], exitHooked: false };
  try {
    const hooks = builtin ? builtin('node:async_hooks') : null;
    if (hooks && hooks.AsyncLocalStorage) {
      als = new hooks.AsyncLocalStorage();
      frameStore = new hooks.AsyncLocalStorage();
    }
    const proc = builtin ? builtin('node:process') : g.process;
    if (proc)
      shared =
        /** @type {{ [SHARED]?: Shared }} */ (proc)[SHARED] ||
        (Object.defineProperty(proc, SHARED, { value: shared, configurable: true }), shared);
    // One listener per process, whatever the number of realms (jest makes one per test file); the
    // calls on the stack are the process's too, of whichever realm.
    if (proc && !shared.exitHooked) {
      shared.exitHooked = true;
      proc.on('exit', (code) => recordExit(shared.pending.splice(0), code));
    }
  } catch {
    // Without them the probe still records: nested async calls of a generated call may show as suite calls.
  }
  /** @type {State} */
  const state = {
    g,
    als,
    frameStore,
    shared,
    busy: false,
    fns: new Map(),
    frames: [],
    lastPath: null,
    births: new WeakMap(),
    birthCount: 0,
    bounded: boundedCalls(builtin),
  };
  /** @type {Map<string, Writer>} */
  const writers = new Map();
  return {
    /**
     * The probe of one instrumented file. The record file sits one folder below the checkout's root
     * (`<root>/.fixloop-probe/records.jsonl`): sites are written relative to that root.
     * @param {string} recordFile
     * @param {unknown} mod
     * @param {import('./probe-inputs.cjs').ChangeValues | null} [values] What the patches' changed lines name.
     */
    file(recordFile, mod, values) {
      let writer = writers.get(recordFile);
      if (!writer) {
        writer = { fs, recordFile, ready: false };
        writers.set(recordFile, writer);
      }
      /** @type {ProbeFile} */
      const file = {
        writer,
        root: dirname(dirname(recordFile)),
        mod,
        values: values || null,
        ...generates(fs, recordFile),
      };
      return fileProbe(state, file);
    },
  };
}

/**
 * Whether calls are generated in this run: not when the probe's folder holds the file that says so
 * (probe-checkout.ts writes it to run a version again without them, after a run they broke), and
 * not around functions nested in another when the file says `nested`.
 * @param {typeof import('node:fs') | null} fs
 * @param {string} recordFile
 * @returns {{ generates: boolean, generatesNested: boolean }}
 */
function generates(fs, recordFile) {
  try {
    const file = `${dirname(recordFile)}/${NO_GENERATED}`;
    if (!fs || !fs.existsSync(file)) return { generates: true, generatesNested: true };
    return { generates: fs.readFileSync(file, 'utf8').trim() === 'nested', generatesNested: false };
  } catch {
    return { generates: true, generatesNested: true };
  }
}

/**
 * The probe of one instrumented file: what its wrappers call (probe-wrap.ts, probe-birth.ts).
 * @param {State} state
 * @param {ProbeFile} file
 */
function fileProbe(state, file) {
  return {
    /**
     * @param {string} id
     * @param {unknown} thisArg
     * @param {ArrayLike<unknown>} argsLike
     * @param {Call['self']} self
     * @param {number} flags
     * @param {Body} body
     */
    c(id, thisArg, argsLike, self, flags, body) {
      return probeCall(state, file, { id, thisArg, argsLike, self, flags }, body);
    },
    /**
     * A generator function's call (probe-generator.cjs): `gen` is its body as a generator function.
     * @param {string} id
     * @param {unknown} thisArg
     * @param {ArrayLike<unknown>} argsLike
     * @param {number} flags
     * @param {Function} gen
     */
    y(id, thisArg, argsLike, flags, gen) {
      return probeGenerator(state, file, { id, thisArg, argsLike, self: null, flags }, gen);
    },
    /**
     * @param {string} id
     * @param {number} k
     */
    l(id, k) {
      mark(state, id, k);
    },
    k: keepShape,
    /**
     * A constructor of a probed method's class begins: its arguments as exact data (probe-birth.ts).
     * @param {ArrayLike<unknown>} argsLike
     */
    a(argsLike) {
      return bornWith(state, argsLike);
    },
    /**
     * The constructor is over: how the object was made, kept beside it.
     * @param {{ text: string, copy: unknown[] } | undefined} args
     * @param {() => unknown} self
     * @param {unknown} target `new.target`
     * @param {string} name The name of the class whose constructor this is.
     */
    n(args, self, target, name) {
      born(state, args, self, target, name);
    },
  };
}

module.exports = { install };
