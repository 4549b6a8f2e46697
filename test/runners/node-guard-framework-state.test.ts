// The framework state the Node guard hands out behind recording proxies (guard-framework-state.cjs),
// driven directly: chai's CommonJS `config`, jest-circus's handler list and `expect`'s holder. A
// write while code under test is the caller is an event naming it; a write by a test is none; the
// proxied objects still work as the frameworks use them.
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';

type Where = { file: string | null; line: number | null } | null;
type Watch = {
  matchers(holder: { matchers?: unknown; customEqualityTesters?: unknown }, runner: string): void;
  jestHandlers(global: Record<string | symbol, unknown>): void;
  chaiConfig(chai: { config?: unknown }): void;
};
const { frameworkStateWatch } = createRequire(import.meta.url)('../../src/runners/node-guard/guard-framework-state.cjs') as {
  frameworkStateWatch: (record: { event: (kind: string, where: Where, text: string) => void }, caller: () => Where) => Watch;
};

/** A watch whose caller is the code under test while `underTest` is set, with the events it records. */
function watch() {
  const events: string[] = [];
  let underTest = false;
  const state = frameworkStateWatch(
    { event: (kind, where, text) => events.push(`${kind} ${where?.file ?? '?'}:${where?.line ?? '?'} ${text}`) },
    () => (underTest ? { file: 'src/wrap.js', line: 7 } : null),
  );
  const asCode = (work: () => void) => {
    underTest = true;
    try {
      work();
    } finally {
      underTest = false;
    }
  };
  return { state, events, asCode };
}

describe("the guard's watch of framework state", () => {
  it("names chai's config.deepEqual set by the code under test, and not a test's setting", () => {
    const { state, events, asCode } = watch();
    const chai = { config: { deepEqual: null as unknown, truncateThreshold: 40 } };
    state.chaiConfig(chai);
    chai.config.truncateThreshold = 0;
    asCode(() => {
      chai.config.deepEqual = () => true;
    });
    expect(events).toEqual(["framework_changed src/wrap.js:7 chai's config.deepEqual set"]);
    expect(typeof chai.config.deepEqual).toBe('function');
    expect(chai.config.truncateThreshold).toBe(0);
  });

  it("leaves an ES module's namespace and a frozen exports object as they are, without throwing", async () => {
    const { state } = watch();
    const namespace = (await import('node:path')) as unknown as { config?: unknown };
    expect(() => state.chaiConfig(namespace)).not.toThrow();
    const frozen = Object.freeze({ config: { deepEqual: null } });
    expect(() => state.chaiConfig(frozen)).not.toThrow();
    expect(frozen.config.deepEqual).toBeNull();
  });

  it("names a handler put ahead of circus's own, which still sees it", () => {
    const { state, events, asCode } = watch();
    const handlers = [() => 'circus'];
    const global: Record<string | symbol, unknown> = { [Symbol.for('EVENT_HANDLERS')]: handlers };
    state.jestHandlers(global);
    asCode(() => (global[Symbol.for('EVENT_HANDLERS')] as Array<() => string>).unshift(() => 'first'));
    expect(handlers.map((h) => h())).toEqual(['first', 'circus']);
    expect(events[0]).toMatch(/^framework_changed src\/wrap\.js:7 jest-circus's event handlers changed \(\w+\)$/);
  });

  it("watches expect's matchers and testers once, however often it is handed the same holder", () => {
    const { state, events, asCode } = watch();
    const holder = { matchers: {}, customEqualityTesters: [] as unknown[] };
    state.matchers(holder, 'jest');
    state.matchers(holder, 'jest');
    holder.customEqualityTesters.push(() => undefined);
    asCode(() => holder.customEqualityTesters.push(() => undefined));
    expect(holder.customEqualityTesters).toHaveLength(2);
    expect(events).toEqual([
      "framework_changed src/wrap.js:7 jest expect's custom equality testers changed (1)",
      "framework_changed src/wrap.js:7 jest expect's custom equality testers changed (length)",
    ]);
  });
});
