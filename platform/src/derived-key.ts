import { createSecretKey, hkdfSync, type KeyObject } from 'node:crypto';

/** A process uses a handful of keys; a full cache simply starts again. */
const CACHE_LIMIT = 32;
const derived = new Map<string, KeyObject>();

/**
 * A 32-byte key of its own for one use of a secret: HKDF-SHA256 over the
 * secret with the use's salt and info. A token made for one use therefore
 * never verifies for another, although one setting (MAIL_LINK_SECRET, or
 * JWT_SECRET) feeds them all. Derived once per process, secret and use.
 */
export function derivedKey(secret: string, salt: string, info: string): KeyObject {
  // The separator cannot appear in a salt or info written in this code base.
  const cacheKey = `${salt}\u0000${info}\u0000${secret}`;
  let key = derived.get(cacheKey);
  if (!key) {
    key = createSecretKey(Buffer.from(hkdfSync('sha256', secret, salt, info, 32)));
    if (derived.size >= CACHE_LIMIT) derived.clear();
    derived.set(cacheKey, key);
  }
  return key;
}

/** The same key as bytes, for the HMACs and ciphers that keep their key in a record. */
export function derivedKeyBytes(secret: string, salt: string, info: string): Buffer {
  return derivedKey(secret, salt, info).export();
}
