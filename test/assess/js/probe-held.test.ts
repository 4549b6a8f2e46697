// The copies the JavaScript probe holds still beside the arguments it varies (a receiver, an object of
// a class): each keeps its class and its own state, shares nothing the copy could change with the
// original, and refuses what it cannot copy faithfully.
import { createRequire } from 'node:module';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';

const require = createRequire(import.meta.url);
const { NotCopied, heldCopy, refusesCopies } = require('../../../src/assess/js/probe-held.cjs') as {
  NotCopied: new () => Error;
  heldCopy: (value: unknown) => unknown;
  refusesCopies: (error: unknown) => boolean;
};

class Node {
  children: Node[] = [];
  parent: Node | null = null;
  name: string;
  constructor(name: string) {
    this.name = name;
  }
  add(child: Node): Node {
    child.parent = this;
    this.children.push(child);
    return child;
  }
}

describe('a held copy', () => {
  it('keeps the class, the cycles and the shared objects of a tree, and shares none of its objects', () => {
    const root = new Node('root');
    const leaf = root.add(new Node('leaf'));
    const copied = heldCopy(root) as Node;
    expect(copied).toBeInstanceOf(Node);
    expect(copied).not.toBe(root);
    expect(copied.children[0]).not.toBe(leaf);
    expect(copied.children[0]?.parent).toBe(copied);
    copied.add(new Node('more'));
    copied.name = 'changed';
    expect(root.children).toHaveLength(1);
    expect(root.name).toBe('root');
  });

  it('copies maps, sets, dates, patterns and buffers as themselves, and shares functions', () => {
    const format = (s: string) => s.trim();
    const state = {
      seen: new Map([['a', { n: 1 }]]),
      tags: new Set(['x']),
      at: new Date(0),
      re: /a+/gi,
      bytes: Buffer.from('hi'),
      format,
    };
    const copied = heldCopy(state) as typeof state;
    expect(copied.seen.get('a')).toEqual({ n: 1 });
    expect(copied.seen.get('a')).not.toBe(state.seen.get('a'));
    expect(copied.tags.has('x')).toBe(true);
    expect(copied.at.getTime()).toBe(0);
    expect(copied.re.flags).toBe('gi');
    expect(Buffer.isBuffer(copied.bytes)).toBe(true);
    copied.bytes[0] = 0;
    expect(state.bytes.toString()).toBe('hi');
    expect(copied.format).toBe(format);
  });

  it('keeps an array of class objects an array, and a frozen object frozen', () => {
    const list = [new Node('a'), new Node('b')];
    const copied = heldCopy(list) as Node[];
    expect(Array.isArray(copied)).toBe(true);
    expect(copied).toHaveLength(2);
    expect(copied[1]).toBeInstanceOf(Node);
    expect(Object.isFrozen(heldCopy(Object.freeze({ a: 1 })))).toBe(true);
  });

  it("copies an object of another realm (jest's per-file context) with that realm's class", () => {
    const other = runInNewContext('class Point { constructor(x) { this.x = x; } }; new Point(3)') as { x: number };
    const copied = heldCopy(other) as { x: number };
    expect(Object.getPrototypeOf(copied)).toBe(Object.getPrototypeOf(other));
    expect(copied.x).toBe(3);
  });

  it('refuses what it cannot copy faithfully, and what is too large', () => {
    expect(() => heldCopy({ cache: new WeakMap() })).toThrow(NotCopied);
    expect(() => heldCopy({ pending: Promise.resolve(1) })).toThrow(NotCopied);
    const wide = { items: Array.from({ length: 5000 }, (_, i) => ({ i })) };
    expect(() => heldCopy(wide)).toThrow(NotCopied);
  });

  it('tells an error that refuses a copy (a private field read on it) from any other', () => {
    class Vault {
      #secret = 1;
      open(): number {
        return this.#secret;
      }
    }
    const copy = heldCopy(new Vault()) as Vault;
    let error: unknown;
    try {
      copy.open();
    } catch (thrown) {
      error = thrown;
    }
    expect(refusesCopies(error)).toBe(true);
    expect(refusesCopies(new TypeError('x is not a function'))).toBe(false);
    expect(refusesCopies(new RangeError('private member'))).toBe(false);
  });
});
