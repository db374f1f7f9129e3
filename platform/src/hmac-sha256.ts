import { hash } from 'node:crypto';

/** SHA-256's block: the size RFC 2104 pads an HMAC key to. */
const BLOCK_BYTES = 64;
const DIGEST_BYTES = 32;
const INNER_PAD = 0x36;
const OUTER_PAD = 0x5c;

/** An HMAC-SHA-256 of one key: the full 32-byte MAC of each message given. */
export type HmacSha256 = (message: Buffer | string) => Buffer;

/**
 * HMAC-SHA-256 (RFC 2104) under one key, for the tokens a campaign signs in
 * every mail: the MAC `createHmac('sha256', key)` gives, through two one-shot
 * hashes over buffers padded once. `createHmac` builds a keyed object per MAC,
 * which cost a campaign mail more than the hashing itself (several per mail).
 * Not for verifying: it is not constant-time, and need not be, as it only signs.
 */
export function hmacSha256Of(key: Buffer): HmacSha256 {
  const block = Buffer.alloc(BLOCK_BYTES);
  // A key longer than a block is hashed first (RFC 2104, section 2).
  (key.length > BLOCK_BYTES ? hash('sha256', key, 'buffer') : key).copy(block);
  // Room for a token's signing input (a JWS's is about 250 bytes), grown for a longer message.
  let inner = paddedRoom(block, INNER_PAD, 512);
  const outer = paddedRoom(block, OUTER_PAD, DIGEST_BYTES);
  return (message) => {
    const length = typeof message === 'string' ? Buffer.byteLength(message) : message.length;
    // Kept for the key's life: grown when a longer message comes, never shrunk.
    // Stryker disable next-line EqualityOperator: growing a room that fits exactly signs the same bytes
    if (BLOCK_BYTES + length > inner.length) inner = paddedRoom(block, INNER_PAD, length);
    if (typeof message === 'string') inner.write(message, BLOCK_BYTES);
    else message.copy(inner, BLOCK_BYTES);
    hash('sha256', inner.subarray(0, BLOCK_BYTES + length), 'buffer').copy(outer, BLOCK_BYTES);
    return hash('sha256', outer, 'buffer');
  };
}

/** The key's block XOR-ed with a pad, followed by room for `room` bytes. */
function paddedRoom(block: Buffer, pad: number, room: number): Buffer {
  const padded = Buffer.allocUnsafeSlow(BLOCK_BYTES + room);
  for (let index = 0; index < BLOCK_BYTES; index++) padded[index] = (block[index] ?? 0) ^ pad;
  return padded;
}
