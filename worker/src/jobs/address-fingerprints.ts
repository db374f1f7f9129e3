import { createHash } from 'node:crypto';

/** Fewest slots a table starts with; it doubles whenever it is half full. */
const MIN_SLOTS = 1 << 16;

/**
 * Slots for `expected` addresses with the table at most half full: a power
 * of two (the slot is the fingerprint masked), never fewer than MIN_SLOTS.
 */
function slotsFor(expected: number): number {
  let slots = MIN_SLOTS;
  while (slots < expected * 2) slots *= 2;
  return slots;
}

/**
 * The addresses one import file has met, as 64-bit fingerprints (the first
 * 8 bytes of a SHA-1 of the normalised address) in an open-addressing table
 * of two typed arrays. A file of 1,000,000 rows takes 16 MB outside the V8
 * heap, where a Set of short strings took over 100 MB of a worker whose heap
 * is capped near that. A fingerprint never leaves the process, so a plain
 * hash does (it is not a mail's identity, which is keyed); with 64 bits, two
 * addresses of a million-row file share one with a chance near 1 in 30
 * million.
 *
 * `expected` (the file's row count, known from its upload) sizes the table
 * at once: a table that doubles holds the old and the new copy together,
 * 24 MB at 524,288 addresses, which was the import's peak. More addresses
 * than expected still fit: the table grows.
 */
export function createAddressFingerprints(expected = 0) {
  let high = new Uint32Array(slotsFor(expected));
  let low = new Uint32Array(high.length);
  let count = 0;

  /** Places a fingerprint in the tables given; false when it is there already. */
  function place(highs: Uint32Array, lows: Uint32Array, h: number, l: number): boolean {
    const mask = highs.length - 1;
    // (0, 0) marks an empty slot: the one fingerprint that is (0, 0) is kept as (0, 1).
    const lowPart = h === 0 && l === 0 ? 1 : l;
    for (let slot = (lowPart ^ h) & mask; ; slot = (slot + 1) & mask) {
      const slotHigh = highs[slot] as number;
      const slotLow = lows[slot] as number;
      if (slotHigh === 0 && slotLow === 0) {
        highs[slot] = h;
        lows[slot] = lowPart;
        return true;
      }
      if (slotHigh === h && slotLow === lowPart) return false;
    }
  }

  /** Twice the slots, every fingerprint placed again. */
  function grow(): void {
    const highs = new Uint32Array(high.length * 2);
    const lows = new Uint32Array(low.length * 2);
    for (let slot = 0; slot < high.length; slot += 1) {
      const h = high[slot] as number;
      const l = low[slot] as number;
      if (h !== 0 || l !== 0) place(highs, lows, h, l);
    }
    high = highs;
    low = lows;
  }

  return {
    /** Notes an address (normalised); false when the file had it already. */
    firstSight(key: string): boolean {
      const digest = createHash('sha1').update(key).digest();
      if (!place(high, low, digest.readUInt32BE(0), digest.readUInt32BE(4))) return false;
      count += 1;
      if (count * 2 > high.length) grow();
      return true;
    },
    /** Addresses noted. */
    get size(): number {
      return count;
    },
    /** Bytes the table holds (outside the V8 heap). */
    get bytes(): number {
      return high.byteLength + low.byteLength;
    },
  };
}
