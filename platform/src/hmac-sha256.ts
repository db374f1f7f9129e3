import { hash } from 'node:crypto';

/** SHA-256's block: the size RFC 2104 pads an HMAC key to. */
const BLOCK_BYTES = 64;
const DIGEST_BYTES = 32;
const INNER_PAD = 0x36;
const OUTER_PAD = 0x5c;

/** The text a MAC can be given as: its bytes one character each (`binary`, latin1), base64url or hex. */
export type MacEncoding = 'binary' | 'base64url' | 'hex';

/** An HMAC-SHA-256 of one key: the full 32-byte MAC of each message given. */
export interface HmacSha256 {
  /** The MAC, in a Buffer of its own. */
  (message: Buffer | string): Buffer;
  /** The MAC as text, with no Buffer made for it: what a token writes out. */
  (message: Buffer | string, encoding: MacEncoding): string;
}

/**
 * HMAC-SHA-256 (RFC 2104) under one key, for the tokens a campaign signs in
 * every mail: the MAC `createHmac('sha256', key)` gives, through two one-shot
 * hashes over buffers padded once. `createHmac` builds a keyed object per MAC,
 * which cost a campaign mail more than the hashing itself (several per mail).
 * The inner hash comes back as text written straight into the outer buffer,
 * and the outer one as the text the caller wants: a Buffer per hash, each
 * with its own memory, was most of what a mail with tracked links allocated.
 * Not for verifying: it is not constant-time, and need not be, as it only signs.
 */
export function hmacSha256Of(key: Buffer): HmacSha256 {
  const block = Buffer.alloc(BLOCK_BYTES);
  // A key longer than a block is hashed first (RFC 2104, section 2).
  (key.length > BLOCK_BYTES ? hash('sha256', key, 'buffer') : key).copy(block);
  // Room for a token's signing input (a JWS's is about 250 bytes), grown for a longer message.
  let inner = paddedRoom(block, INNER_PAD, 512);
  // The inner hash's input: the pad and the last message, kept while messages keep their length.
  let signed = inner.subarray(0, BLOCK_BYTES);
  const outer = paddedRoom(block, OUTER_PAD, DIGEST_BYTES);
  /** The outer hash's input for `message`: its pad, then the inner hash. */
  const outerOf = (message: Buffer | string): Buffer => {
    const length = typeof message === 'string' ? Buffer.byteLength(message) : message.length;
    // Kept for the key's life: grown when a longer message comes, never shrunk.
    // Stryker disable next-line EqualityOperator: growing a room that fits exactly signs the same bytes
    if (BLOCK_BYTES + length > inner.length) inner = paddedRoom(block, INNER_PAD, length);
    if (typeof message === 'string') inner.write(message, BLOCK_BYTES);
    else message.copy(inner, BLOCK_BYTES);
    // A grown room always takes a new view: its message is longer than the last one.
    if (signed.length !== BLOCK_BYTES + length) signed = inner.subarray(0, BLOCK_BYTES + length);
    outer.write(hash('sha256', signed, 'binary'), BLOCK_BYTES, DIGEST_BYTES, 'binary');
    return outer;
  };
  function mac(message: Buffer | string): Buffer;
  function mac(message: Buffer | string, encoding: MacEncoding): string;
  function mac(message: Buffer | string, encoding?: MacEncoding): Buffer | string {
    const digest = hash('sha256', outerOf(message), encoding ?? 'binary');
    return encoding === undefined ? Buffer.from(digest, 'binary') : digest;
  }
  return mac;
}

/** The key's block XOR-ed with a pad, followed by room for `room` bytes. */
function paddedRoom(block: Buffer, pad: number, room: number): Buffer {
  const padded = Buffer.allocUnsafeSlow(BLOCK_BYTES + room);
  for (let index = 0; index < BLOCK_BYTES; index++) padded[index] = (block[index] ?? 0) ^ pad;
  return padded;
}
