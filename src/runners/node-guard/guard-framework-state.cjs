'use strict';
// The state an assertion library or a runner decides outcomes with, held in plain objects anybody in
// the process can reach: `expect`'s matcher table and its custom equality testers (jest and vitest
// share one holder under a global symbol), jest-circus's list of event handlers (each test's `fn`
// passes through them as it is added), chai's `config` (its `deepEqual` hook decides `eql`). Each is
// handed out as a proxy that records every write by code that is not a test (`caller`): a test file
// or a setup file may add a tester or a matcher, code under test may not. Nothing here may throw into
// the module load that hands the state over.

const EVENT_HANDLERS = Symbol.for('EVENT_HANDLERS');

/** @typedef {import('./guard-record.cjs').GuardRecord} GuardRecord */
/** @typedef {{ matchers?: unknown, customEqualityTesters?: unknown }} MatchersHolder what `expect` keeps its state in */

/**
 * @param {GuardRecord} record
 * @param {() => { file: string | null, line: number | null } | null} caller the code under test on the stack, if any
 */
function frameworkStateWatch(record, caller) {
  /** @type {WeakSet<object>} */
  const proxies = new WeakSet();
  /**
   * `target` as a proxy that records who writes it; the same proxy when `target` is one already.
   * @template {object} T
   * @param {T} target
   * @param {string} what how the record names a write
   * @returns {T}
   */
  const watched = (target, what) => {
    if (proxies.has(target)) return target;
    /** @param {PropertyKey} key */
    const note = (key) => {
      const who = caller();
      if (who) record.event('framework_changed', who, what.replace('%s', String(key)));
    };
    const proxy = new Proxy(target, {
      set: (object, key, value) => (note(key), Reflect.set(object, key, value)),
      defineProperty: (object, key, descriptor) => (note(key), Reflect.defineProperty(object, key, descriptor)),
      deleteProperty: (object, key) => (note(key), Reflect.deleteProperty(object, key)),
    });
    proxies.add(proxy);
    return proxy;
  };
  const isObject = (/** @type {unknown} */ value) => typeof value === 'object' && value !== null;
  return {
    /**
     * The matcher table and the equality testers in `expect`'s holder, each replaced by its proxy.
     * @param {MatchersHolder | null | undefined} holder
     * @param {string} runner
     */
    matchers(holder, runner) {
      if (!holder) return;
      if (isObject(holder.matchers))
        holder.matchers = watched(
          /** @type {object} */ (holder.matchers),
          `${runner} expect matcher %s replaced (expect.extend)`,
        );
      if (Array.isArray(holder.customEqualityTesters))
        holder.customEqualityTesters = watched(
          holder.customEqualityTesters,
          `${runner} expect's custom equality testers changed (%s)`,
        );
    },
    /**
     * jest-circus's event handlers in a test file's realm (its list is read there by whoever adds one).
     * @param {{ [key: string | symbol]: unknown }} global
     */
    jestHandlers(global) {
      const handlers = global[EVENT_HANDLERS];
      if (Array.isArray(handlers)) global[EVENT_HANDLERS] = watched(handlers, "jest-circus's event handlers changed (%s)");
    },
    /**
     * chai's `config`, as its CommonJS module hands it out.
     * @param {{ config?: unknown }} chai
     */
    chaiConfig(chai) {
      // An ES module's namespace (chai 5 and later, through require) says its bindings are writable
      // and throws on assignment: its `config` is left as it is.
      if (Object.prototype.toString.call(chai) === '[object Module]') return;
      const descriptor = Object.getOwnPropertyDescriptor(chai, 'config');
      if (!descriptor || !descriptor.writable || !isObject(descriptor.value)) return;
      try {
        chai.config = watched(/** @type {object} */ (descriptor.value), "chai's config.%s set");
      } catch {
        // A frozen or otherwise unwritable exports object: nothing to watch through it.
      }
    },
  };
}

module.exports = { frameworkStateWatch };
