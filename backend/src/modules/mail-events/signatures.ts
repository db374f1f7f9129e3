import { createHmac, timingSafeEqual } from 'node:crypto';

/** Compares two secrets in constant time, whatever their lengths. */
export function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

export function hmacHex(key: string, data: string | Buffer): string {
  return createHmac('sha256', key).update(data).digest('hex');
}
