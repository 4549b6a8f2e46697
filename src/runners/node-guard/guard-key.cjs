'use strict';
// This process's one-use key, and the signature of its record (docs/design.md §3.2.7). fixloop keeps
// a named pipe of keys in the records folder filled while the command runs
// (src/runners/guard-key-pipe.ts); the preload, before any repository code of this process, reads
// one whole 64-byte chunk from it (a pipe's read takes what it returns: no other process can get the
// same key, nor see one another will get) and keeps the key in a closure. fixloop requires a valid
// record for every key that was taken: a record rewritten without its key is not the guard's, a
// record removed is missing evidence.
//
// The signature is HMAC-SHA256 built here on `crypto.hash`, a function taken at load: code under
// test that replaces `crypto.createHmac` or the Hmac prototype's methods later cannot see the key
// or have the guard sign a payload of its own (an Hmac object's `update` is reachable through its
// prototype; this is not). A Node before 20.12 has no `crypto.hash`: there the guard signs with
// `createHmac` taken at load, whose prototype code can still replace (docs/security.md says so).
const { closeSync, constants, openSync, readSync } = require('node:fs');
const { join } = require('node:path');
const crypto = require('node:crypto');

// Taken at load, before any repository code: what the code replaces later is not what runs here.
// Key bytes are only ever read and written by index (never through a prototype's method).
const hash = typeof crypto.hash === 'function' ? crypto.hash : null;
const createHmac = crypto.createHmac;
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

/** Bytes of one key in the pipe: its index (8 digits) and the key (56 hex digits). */
const CHUNK = 64;
const KEY_TEXT = /^\d{8}[0-9a-f]{56}$/;
/** How long a process waits for fixloop to top the pipe up, in steps of STEP_MS. */
const WAIT_MS = 2000;
const STEP_MS = 5;

/** @param {number} ms */
function pause(ms) {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * Takes a key from the pipe `dir/keys.fifo`. Null: no pipe (not a judged command), none left in
 * time, or a chunk cut short (a reader before this one took part of one): missing evidence.
 * @param {string} dir the records folder
 * @returns {ClaimedKey | null}
 */
function claimKey(dir) {
  /** @type {number} */
  let fd;
  try {
    fd = openSync(join(dir, 'keys.fifo'), constants.O_RDONLY | constants.O_NONBLOCK);
  } catch {
    return null;
  }
  try {
    const chunk = Buffer.alloc(CHUNK);
    for (let waited = 0; waited <= WAIT_MS; waited += STEP_MS) {
      /** @type {number} */
      let read;
      try {
        read = readSync(fd, chunk, 0, CHUNK, null);
      } catch (error) {
        if (/** @type {NodeJS.ErrnoException} */ (error).code !== 'EAGAIN') return null;
        pause(STEP_MS); // empty for now: fixloop tops it up
        continue;
      }
      const text = chunk.toString('latin1', 0, read);
      if (read !== CHUNK || !KEY_TEXT.test(text)) return null;
      const key = bytesOfHex(text.slice(8));
      return { index: Number(text.slice(0, 8)), sign: (payload) => hmac(key, payload) };
    }
    return null;
  } finally {
    closeSync(fd);
  }
}

module.exports = { claimKey, hmac };
