'use strict';
// The parts a test's verdict is computed with, that code in the same process could swap (docs/design.md
// §3.2.7): the runner's test API on the tests' global (a `test` replaced by a wrapper that swallows a
// failure hands the runner, and the guard's body wrapper, a body that returned), and the intrinsics the
// assertion libraries decide equality with (`toBe` is `Object.is`; deep equality walks keys with
// `Object.keys` and `hasOwnProperty`). node's own `assert` uses primordials taken at start-up and is
// guarded in guard-exports.cjs; `expect` and chai read these from the realm they run in.
//
// Each watched property becomes an accessor that keeps whatever is written (a project's setup file may
// wrap `it`; a test may stub an intrinsic) and records the writer when it is the repository's code,
// not a test, a setup file or a dependency (guard-caller.cjs). A redefinition through
// `Object.defineProperty` and kin is recorded the same way and let through. `delete` cannot be watched:
// a watched property no longer as the guard left it, by a route the guard did not see, is recorded at
// each test's end and at exit with no place. The intrinsics' reads are not watched (a getter call is
// their whole cost). A runner's global read by the repository's code itself (`typeof describe`,
// `globalThis.it`; not a test's, a setup file's or a dependency's read) is recorded as the runner
// detected (`runner_detected`): code that asks whether it runs under test can answer the tests alone.
// As every event, one the pristine code's run had too is the project's own way.
const { watchDefinitions } = require('./guard-define-watch.cjs');
const { runnerDetected } = require('./guard-environment.cjs');
const { createInstanceofWatch } = require('./guard-instanceof.cjs');
const { createPrototypeWatch } = require('./guard-prototype-keys.cjs');

const define = Object.defineProperty;

/** The intrinsics `expect` (jest, vitest) and chai decide a verdict with, by owner. */
const VERDICT_INTRINSICS = {
  Object: ['is', 'keys', 'entries', 'hasOwn', 'getOwnPropertyNames', 'getOwnPropertySymbols', 'getPrototypeOf'],
  'Object.prototype': ['hasOwnProperty', 'toString'],
  Array: ['isArray'],
  'Array.prototype': ['includes', 'indexOf'],
  Number: ['isNaN'],
  Reflect: ['ownKeys'],
  'String.prototype': ['includes'],
  'RegExp.prototype': ['test'],
};

/** Each runner's test API, as it puts it on the tests' global. */
const RUNNER_GLOBALS = {
  jest: [
    'test',
    'it',
    'describe',
    'expect',
    'fit',
    'xit',
    'xtest',
    'fdescribe',
    'xdescribe',
    'beforeAll',
    'beforeEach',
    'afterAll',
    'afterEach',
  ],
  mocha: [
    'it',
    'specify',
    'describe',
    'context',
    'xit',
    'xdescribe',
    'before',
    'after',
    'beforeEach',
    'afterEach',
    'suite',
    'test',
  ],
  vitest: ['test', 'it', 'describe', 'suite', 'expect', 'beforeAll', 'beforeEach', 'afterAll', 'afterEach'],
};

/** @typedef {import('./guard-record.cjs').GuardRecord} GuardRecord */
/** @typedef {import('./guard-caller.cjs').Caller['caller']} CallerOf */
/** @typedef {import('./guard-caller.cjs').Caller['direct']} DirectOf */
/** @typedef {{ target: object, key: string, label: string, get: () => unknown }} Watched */

const HERE = /** @type {NodeJS.Module} */ (/** @type {unknown} */ (module)).filename;

/**
 * @param {GuardRecord} record
 * @param {CallerOf} caller who wrote a watched property
 * @param {DirectOf} direct who read a runner's global: code that asks whether `describe` is defined
 *   detects the runner, as a read of the runner's variable does (guard-environment.cjs)
 */
function createIntrinsicsWatch(record, caller, direct) {
  // The guard's own realm's properties, and those of the realm tests run in now: jest makes one for
  // each test file, and a list of every one would keep them all alive and be walked at each test's end.
  /** @type {Watched[]} */
  const own = [];
  /** @type {Watched[]} */
  let current = [];
  /** @param {object} global */
  const listOf = (global) => (global === globalThis ? own : current);
  /** @type {WeakMap<object, Map<PropertyKey, string>>} each watched object's keys, to their labels */
  const labels = new WeakMap();
  /** @type {WeakSet<object>} the realms whose define functions are wrapped */
  const realms = new WeakSet();
  /** @type {Set<string>} labels already recorded as changed by an unseen route */
  const unseen = new Set();

  const { note, read } = recorders(record, caller, direct);
  const prototypeKeys = createPrototypeWatch(record, note);
  const instanceofs = createInstanceofWatch(note);

  /** @type {(target: object, key: string, label: string, isGlobal: boolean, watched: Watched[]) => void} (accessorOf; the realm's list) */
  const watch = (target, key, label, isGlobal, watched) => {
    const get = accessorOf(target, key, isGlobal, () => note(label, 'replaced'), isGlobal ? () => read(label) : undefined);
    if (!get) return;
    const keys = labels.get(target) || new Map();
    keys.set(key, label);
    labels.set(target, keys);
    watched.push({ target, key, label, get });
  };

  /**
   * A redefinition of a watched property, seen by a realm's define functions: recorded, and the end
   * of its watch (the definer's property now).
   * @param {unknown} target
   * @param {PropertyKey} key
   */
  const redefined = (target, key) => {
    prototypeKeys.defining(target, key);
    instanceofs.defining(target, key);
    const keys = (typeof target === 'object' || typeof target === 'function') && target !== null && labels.get(target);
    const label = keys && keys.get(key);
    if (!keys || !label) return;
    note(label, 'redefined');
    keys.delete(key);
  };
  /** @param {Record<string, unknown>} global */
  const wrapDefines = (global) => {
    const ObjectOf = /** @type {ObjectConstructor | undefined} */ (global.Object);
    if (!ObjectOf || realms.has(ObjectOf)) return;
    realms.add(ObjectOf);
    watchDefinitions(ObjectOf, /** @type {typeof Reflect | undefined} */ (global.Reflect), redefined);
  };

  return {
    /**
     * Watches the verdict intrinsics of the realm whose global this is.
     * @param {Record<string, unknown>} global
     */
    intrinsicsOf(global) {
      if (global !== globalThis && !realms.has(/** @type {object} */ (global.Object))) current = [];
      wrapDefines(global);
      for (const [target, key, label] of verdictIntrinsics(global)) watch(target, key, label, false, listOf(global));
      prototypeKeys.realm(global);
      instanceofs.realm(global);
    },
    /**
     * Watches a runner's test API on the tests' global, defined there or still to be.
     * @param {'jest' | 'mocha' | 'vitest'} runner
     * @param {Record<string, unknown>} global
     */
    runnerGlobals(runner, global) {
      wrapDefines(global);
      for (const key of RUNNER_GLOBALS[runner])
        if (!labels.get(global)?.has(key)) watch(global, key, `${runner}'s global \`${key}\``, true, listOf(global));
    },
    /**
     * Watches an assertion library's methods (chai's `Assertion.prototype`: every vitest matcher calls its `assert`).
     * @param {object} prototype
     * @param {string} name its label
     */
    assertionMethods(prototype, name) {
      if (!labels.has(prototype)) for (const key of methodsOf(prototype)) watch(prototype, key, `${name}.${key}`, false, own);
    },
    /** Records each watched property no longer the guard's accessor, redefined by a route the guard did not see. */
    check() {
      prototypeKeys.check();
      recordUnseen(record, [...own, ...current], labels, unseen);
    },
  };
}

/**
 * What the watch records: a watched property written by the repository's code (`note`), and a
 * runner's global read by it (`read`).
 * @param {GuardRecord} record
 * @param {CallerOf} caller
 * @param {DirectOf} direct
 */
function recorders(record, caller, direct) {
  return {
    /**
     * @param {string} label
     * @param {string} how
     */
    note(label, how) {
      const who = caller();
      if (who) record.event('framework_changed', who, `${label} ${how}`);
    },
    /** @param {string} label */
    read(label) {
      runnerDetected(record, direct(HERE), `read ${label}`);
    },
  };
}

/**
 * Records each watched property no longer the guard's accessor, by a route no define function was
 * seen to take, once, with no place.
 * @param {GuardRecord} record
 * @param {Watched[]} watched
 * @param {WeakMap<object, Map<PropertyKey, string>>} labels
 * @param {Set<string>} unseen labels already recorded
 */
function recordUnseen(record, watched, labels, unseen) {
  for (const label of notAsLeft(watched, labels, unseen)) {
    unseen.add(label);
    const detail = `${label} deleted or redefined by a route the guard does not watch`;
    record.event('framework_changed', { file: null, line: null }, detail);
  }
}

/**
 * The labels of the watched properties no longer the guard's accessor, that no define function was
 * seen to redefine (those leave `labels`), not recorded yet.
 * @param {Watched[]} watched
 * @param {WeakMap<object, Map<PropertyKey, string>>} labels
 * @param {Set<string>} unseen
 * @returns {string[]}
 */
function notAsLeft(watched, labels, unseen) {
  return watched
    .filter(({ target, key, label }) => !unseen.has(label) && labels.get(target)?.has(key))
    .filter(({ target, key, get }) => Object.getOwnPropertyDescriptor(target, key)?.get !== get)
    .map(({ label }) => label);
}

/**
 * An object's own methods (data properties that hold a function), its constructor aside.
 * @param {object} target
 * @returns {string[]}
 */
function methodsOf(target) {
  return Object.getOwnPropertyNames(target).filter(
    (key) => key !== 'constructor' && typeof Object.getOwnPropertyDescriptor(target, key)?.value === 'function',
  );
}

/**
 * The verdict intrinsics of a realm, as [owner object, key, label].
 * @param {Record<string, unknown>} global
 * @returns {[object, string, string][]}
 */
function verdictIntrinsics(global) {
  return Object.entries(VERDICT_INTRINSICS).flatMap(([owner, keys]) => {
    const [name = '', prototype] = owner.split('.');
    const object = /** @type {Record<string, unknown> | undefined} */ (global[name]);
    const target = prototype ? /** @type {object | undefined} */ (object && object.prototype) : object;
    return target ? keys.map((key) => /** @type {[object, string, string]} */ ([target, key, `${owner}.${key}`])) : [];
  });
}

/**
 * Makes a data property an accessor that keeps what is written and tells `written` of a write to the
 * object itself; returns its getter, or null for a property that cannot be watched (fixed, or an
 * accessor already).
 * @param {object} target
 * @param {string} key
 * @param {boolean} isGlobal a realm's global: a name the runner has not defined yet is watched too (it
 *   defines it later), and the setter's receiver may be the global's proxy (a vm context's)
 * @param {() => void} written
 * @param {() => void} [read] told of each read
 * @returns {(() => unknown) | null}
 */
function accessorOf(target, key, isGlobal, written, read) {
  const descriptor = Object.getOwnPropertyDescriptor(target, key);
  if (descriptor ? !descriptor.configurable || !('value' in descriptor) : !isGlobal) return null;
  let value = descriptor ? descriptor.value : undefined;
  const get = read
    ? () => {
        read();
        return value;
      }
    : () => value;
  Object.defineProperty(target, key, {
    configurable: true,
    enumerable: descriptor ? descriptor.enumerable : true,
    get,
    set(next) {
      // An object that inherits the property (`Foo.prototype.toString = …` inherits Object's) gets
      // an own one, as an assignment over an inherited writable data property makes.
      if (this !== target && !isGlobal) {
        // (a primitive receiver keeps nothing, as in sloppy code)
        if ((typeof this === 'object' && this !== null) || typeof this === 'function')
          define(this, key, { value: next, writable: true, enumerable: true, configurable: true });
        return;
      }
      written();
      value = next;
    },
  });
  return get;
}

module.exports = { createIntrinsicsWatch };
