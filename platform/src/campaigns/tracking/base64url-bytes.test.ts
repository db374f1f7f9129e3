import { base64urlLength, bytesOfBase64url } from './base64url-bytes';

const BYTES = Buffer.from([0xfb, 0xff, 0xbf, 0x01, 0x02]);
/** `-_-_AQI`: five bytes, seven characters, two spare bits in the last one. */
const TEXT = BYTES.toString('base64url');

describe('canonical base64url bytes', () => {
  it('reads exactly the bytes it is asked for', () => {
    expect(bytesOfBase64url(TEXT, 5)).toEqual(BYTES);
    expect(base64urlLength(5)).toBe(7);
    expect(base64urlLength(42)).toBe(56);
  });

  it('refuses another length before decoding', () => {
    expect(bytesOfBase64url(TEXT, 4)).toBeUndefined();
    expect(bytesOfBase64url(`${TEXT}A`, 5)).toBeUndefined();
    expect(bytesOfBase64url('', 5)).toBeUndefined();
  });

  it('refuses every other spelling Node would decode to the same bytes', () => {
    const others = [
      BYTES.toString('base64'),
      TEXT.replace(/-/g, '+').replace(/_/g, '/'),
      `${TEXT.slice(0, -1)}J`,
      `${TEXT.slice(0, -1)} `,
      `${TEXT.slice(0, -1)}=`,
      `${TEXT.slice(0, -1)}é`,
    ];
    for (const other of others) {
      expect(Buffer.from(other, 'base64url').subarray(0, 4)).toEqual(BYTES.subarray(0, 4));
      expect(bytesOfBase64url(other, 5)).toBeUndefined();
    }
  });
});
