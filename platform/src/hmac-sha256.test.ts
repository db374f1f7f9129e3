import { createHmac } from 'node:crypto';
import { hmacSha256Of } from './hmac-sha256';

const reference = (key: Buffer, message: Buffer | string) =>
  createHmac('sha256', key).update(message).digest();

/** The prepared HMAC must be HMAC-SHA-256 itself: any other MAC would fail every token it signs. */
describe('hmacSha256Of', () => {
  it.each([
    ['an empty key', Buffer.alloc(0)],
    ['a 32-byte key', Buffer.from('0123456789abcdef0123456789abcdef')],
    ['a key of exactly one block', Buffer.alloc(64, 7)],
    ['a key longer than a block, hashed first', Buffer.from('k'.repeat(65))],
    ['a long pass phrase', Buffer.from('ü'.repeat(100))],
  ])('gives the MAC createHmac gives, under %s', (_, key) => {
    const mac = hmacSha256Of(key);
    for (const message of [
      '',
      'a',
      'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhQGIudG4ifQ',
      'rïm@exämple.tn',
    ]) {
      expect(mac(message).equals(reference(key, message))).toBe(true);
      expect(mac(Buffer.from(message)).equals(reference(key, message))).toBe(true);
    }
  });

  it('signs a message longer than its room, then shorter ones, each on its own bytes', () => {
    const key = Buffer.from('campaign key of thirty-two bytes');
    const mac = hmacSha256Of(key);
    const long = 'x'.repeat(1000);
    expect(mac(long).equals(reference(key, long))).toBe(true);
    // What the long message left in the room is none of the short one's MAC.
    expect(mac('short').equals(reference(key, 'short'))).toBe(true);
    expect(mac(Buffer.alloc(3, 1)).equals(reference(key, Buffer.alloc(3, 1)))).toBe(true);
  });

  it.each([512, 513, 514])('signs a message of %i bytes, about its first room, whole', (length) => {
    const key = Buffer.from('campaign key of thirty-two bytes');
    const message = Buffer.alloc(length, 'm');
    message[length - 1] = 0x21;
    expect(hmacSha256Of(key)(message).equals(reference(key, message))).toBe(true);
    expect(hmacSha256Of(key)(message.toString()).equals(reference(key, message))).toBe(true);
  });

  it('answers a MAC of its own for each call', () => {
    const mac = hmacSha256Of(Buffer.from('key'));
    const first = mac('one');
    const copy = Buffer.from(first);
    mac('two');
    expect(first.equals(copy)).toBe(true);
    expect(first).toHaveLength(32);
  });

  it.each(['binary', 'base64url', 'hex'] as const)(
    'gives the MAC as %s text, message after message of other lengths',
    (encoding) => {
      const key = Buffer.from('campaign key of thirty-two bytes');
      const mac = hmacSha256Of(key);
      for (const message of [
        'one',
        'x'.repeat(600),
        '',
        'rïm@exämple.tn',
        'two',
        'x'.repeat(600),
      ]) {
        const expected = createHmac('sha256', key).update(message).digest(encoding);
        expect(mac(message, encoding)).toBe(expected);
        expect(mac(Buffer.from(message), encoding)).toBe(expected);
        expect(mac(message).equals(reference(key, message))).toBe(true);
      }
    },
  );
});
