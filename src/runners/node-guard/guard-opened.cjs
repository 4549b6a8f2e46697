'use strict';
// The test files by what they are, not by the name code gives them: each listed test file's device
// and inode, taken when the guard loads (before any repository code runs). A file opened under any
// other name that reaches the same file (a path through `/proc/self/root` or `/proc/self/cwd`, a
// symlink or a hard link the code made, a descriptor) has the same device and inode. The check is one
// `stat` and a map lookup: node's module loader reads every module through the functions it follows.
const fs = require('node:fs');
const { join, sep } = require('node:path');

const statSync = fs.statSync;
const fstatSync = fs.fstatSync;
const realpathSync = fs.realpathSync;

/** @typedef {ReturnType<typeof testIdentities>} TestIdentities */

/**
 * @param {string} root the repository
 * @param {string[]} tests the test files the judge listed, relative to `root`
 */
function testIdentities(root, tests) {
  /** @type {Map<string, string>} */
  const byIdentity = new Map();
  /** Each listed test's real path, for a folder copied whole. */
  /** @type {Map<string, string>} */
  const byPath = new Map();
  for (const rel of tests) {
    try {
      const stats = statSync(join(root, rel), { throwIfNoEntry: false });
      if (!stats || !stats.isFile()) continue;
      byIdentity.set(`${stats.dev}:${stats.ino}`, rel);
      byPath.set(realpathSync(join(root, rel)), rel);
    } catch {
      // a listed file that is not there: nothing to compare with
    }
  }
  /**
   * @param {fs.Stats | undefined} stats
   * @returns {string | null}
   */
  const testOf = (stats) => (stats ? (byIdentity.get(`${stats.dev}:${stats.ino}`) ?? null) : null);
  return {
    /**
     * The listed test file (relative) that `target` reaches, as `fs` would open it: a path (string,
     * Buffer or file URL, relative to the working folder), or a descriptor.
     * @param {unknown} target
     * @returns {string | null}
     */
    reached(target) {
      if (byIdentity.size === 0) return null;
      try {
        if (typeof target === 'number') return testOf(fstatSync(target));
        if (typeof target === 'string' || Buffer.isBuffer(target) || target instanceof URL)
          return testOf(statSync(target, { throwIfNoEntry: false }));
      } catch {
        // not a path or descriptor `fs` could open either
      }
      return null;
    },
    /**
     * The first listed test file inside the folder `target` names (a folder copied whole, `fs.cp`), or null.
     * @param {unknown} target
     * @returns {string | null}
     */
    inside(target) {
      if (byPath.size === 0) return null;
      try {
        if (typeof target !== 'string' && !Buffer.isBuffer(target) && !(target instanceof URL)) return null;
        const folder = realpathSync(target) + sep;
        for (const [path, rel] of byPath) if (path.startsWith(folder)) return rel;
      } catch {
        // not a folder there
      }
      return null;
    },
  };
}

module.exports = { testIdentities };
