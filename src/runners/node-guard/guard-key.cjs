'use strict';
// This process's one-use key, and the signature of its record (docs/design.md §3.2.7). fixloop writes a
// pool of keys into `<records>/keys/` before the command runs; the preload, before any repository
// code of this process, claims one (rename, read, delete: two processes never get the same one) and
// keeps it in a closure. Code that later reads the folder finds only the keys no process has taken,
// and fixloop requires a valid record for every key that was taken: a record rewritten without its
// key is not the guard's, a record removed is missing evidence.
//
// The signature is HMAC-SHA256 built here on `crypto.hash`, a function taken at load: code under
// test that replaces `crypto.createHmac` or the Hmac prototype's methods later cannot see the key
// or have the guard sign a payload of its own (an Hmac object's `update` is reachable through its
// prototype; this is not). A Node before 20.12 has no `crypto.hash`: there the guard signs with
// `createHmac` taken at load, whose prototype code can still replace (docs/security.md says so).
const { readdirSync, readFileSync, renameSync, unlinkSync } = require('node:fs');
const { join } = require('node:path');
const { threadId } = require('node:worker_threads');
const crypto = require('node:crypto');

// Taken at load, before any repository code: what the code replaces later is not what runs here.
// Key bytes are only ever read and written by index (never through a prototype's method).
const hash = typeof crypto.hash === 'function' ? crypto.hash : null;
const createHmac = crypto.createHmac;
const randomInt = crypto.randomInt;
const encoder = new (require('node:util').TextEncoder)();
const encode = encoder.encode.bind(encoder);
const Bytes = Uint8Array;
const BLOCK = 64;
const HEX = '0123456789abcdef';

/**
 * Lowercase hex (what `crypto.hash` writes and the key files hold) to bytes.
 * @param {string} hex
 * @returns {Uint8Array}
 */
function bytesOfHex(hex) {
  const out = new Bytes(hex.length >> 1);
  for (let i = 0; i < out.length; i++) out[i] = HEX.indexOf(hex[2 * i]) * 16 + HEX.indexOf(hex[2 * i + 1]);
  return out;
}

/**
 * @param {Uint8Array} a
 * @param {Uint8Array} b
 * @returns {Uint8Array}
 */
function joined(a, b) {
  const out = new Bytes(a.length + b.length);
  for (let i = 0; i < a.length; i++) out[i] = a[i];
  for (let i = 0; i < b.length; i++) out[a.length + i] = b[i];
  return out;
}

/**
 * HMAC-SHA256 (RFC 2104) of `payload` under `key` (32 bytes), as hex.
 * @param {Uint8Array} key
 * @param {string} payload
 * @returns {string}
 */
function hmac(key, payload) {
  if (!hash) return createHmac('sha256', key).update(payload, 'utf8').digest('hex');
  const inner = new Bytes(BLOCK);
  const outer = new Bytes(BLOCK);
  for (let i = 0; i < BLOCK; i++) {
    const k = i < key.length ? key[i] : 0;
    inner[i] = k ^ 0x36;
    outer[i] = k ^ 0x5c;
  }
  const innerHash = bytesOfHex(hash('sha256', joined(inner, encode(payload)), 'hex'));
  return hash('sha256', joined(outer, innerHash), 'hex');
}

/** @typedef {{ index: number, sign: (payload: string) => string }} ClaimedKey */

/**
 * Claims a key of the pool in `dir/keys`, from a random place in it (which key a later process
 * takes cannot be told in advance). Null: no pool, or none left.
 * @param {string} dir the records folder
 * @returns {ClaimedKey | null}
 */
function claimKey(dir) {
  const keys = join(dir, 'keys');
  /** @type {string[]} */
  let names;
  try {
    names = readdirSync(keys).filter((name) => /^\d+$/.test(name));
  } catch {
    return null;
  }
  const start = names.length > 0 ? randomInt(names.length) : 0;
  for (let j = 0; j < names.length; j++) {
    const name = names[(start + j) % names.length];
    const mine = join(keys, `${name}.claimed-${process.pid}-${threadId}`);
    try {
      renameSync(join(keys, name), mine);
    } catch {
      continue; // another process took it first
    }
    try {
      const key = bytesOfHex(readFileSync(mine, 'ascii').trim().toLowerCase());
      unlinkSync(mine);
      return { index: Number(name), sign: (payload) => hmac(key, payload) };
    } catch {
      return null;
    }
  }
  return null;
}

module.exports = { claimKey, hmac };
