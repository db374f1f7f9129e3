import { createHash } from 'node:crypto';
import {
  newCampaignTrackingKey,
  recipientKeyBytes,
  recipientKeyOf,
  recipientKeysOf,
} from './recipient-key';

/** A fixed key, so that the known answer below pins the format of stored keys. */
const FIXED_KEY = Buffer.alloc(32, 7).toString('base64url');
const BASE64URL = /^[A-Za-z0-9_-]+$/;

/** The keys that name a recipient in a campaign's links and events instead of the address. */
describe('recipient keys', () => {
  it('makes a campaign key of 32 random bytes in 43 base64url characters', () => {
    const key = newCampaignTrackingKey();
    expect(key).toMatch(BASE64URL);
    expect(key).toHaveLength(43);
    expect(Buffer.from(key, 'base64url')).toHaveLength(32);
    expect(newCampaignTrackingKey()).not.toBe(key);
  });

  it('answers 128 bits of the HMAC of the address, in 22 URL-safe characters', () => {
    const key = recipientKeyOf(FIXED_KEY, 'leila@example.tn');
    // Events stored under these keys are tied back by computing them again:
    // the same address and campaign key must give the same value in every version.
    expect(key).toBe('Hagp0x2GVK6eAe4cQeMVKA');
    expect(key).toMatch(BASE64URL);
    expect(recipientKeyBytes(key)).toHaveLength(16);
  });

  it("gives a campaign's many recipients, keyed once, the keys recipientKeyOf gives", () => {
    const keysOf = recipientKeysOf(FIXED_KEY);
    expect(keysOf('leila@example.tn')).toBe('Hagp0x2GVK6eAe4cQeMVKA');
    expect(keysOf(' Leila@Example.TN')).toBe('Hagp0x2GVK6eAe4cQeMVKA');
    const other = newCampaignTrackingKey();
    for (const address of ['a@b.tn', `${'x'.repeat(200)}@example.tn`, 'rïm@exämple.tn']) {
      expect(keysOf(address)).toBe(recipientKeyOf(FIXED_KEY, address));
      expect(recipientKeysOf(other)(address)).toBe(recipientKeyOf(other, address));
    }
    expect(() => recipientKeysOf('short')).toThrow(RangeError);
    expect(() => keysOf('  ')).toThrow(RangeError);
  });

  it('gives one address one key in a campaign, however it is spelt', () => {
    const campaignKey = newCampaignTrackingKey();
    const key = recipientKeyOf(campaignKey, 'leila@example.tn');
    expect(recipientKeyOf(campaignKey, 'leila@example.tn')).toBe(key);
    expect(recipientKeyOf(campaignKey, '  Leila@Example.TN ')).toBe(key);
    expect(recipientKeyOf(campaignKey, 'omar@example.tn')).not.toBe(key);
  });

  it('gives one address unrelated keys in two campaigns', () => {
    const first = recipientKeyOf(newCampaignTrackingKey(), 'leila@example.tn');
    const second = recipientKeyOf(newCampaignTrackingKey(), 'leila@example.tn');
    expect(second).not.toBe(first);
  });

  it('is not a plain hash of the address, which anyone could compute', () => {
    const key = Buffer.from(recipientKeyOf(FIXED_KEY, 'leila@example.tn'), 'base64url');
    for (const algorithm of ['sha256', 'sha1', 'md5']) {
      const plain = createHash(algorithm).update('leila@example.tn').digest();
      expect(key.equals(plain.subarray(0, key.length))).toBe(false);
    }
  });

  it('refuses a malformed campaign key and an empty address, rather than make a key no one can tie back', () => {
    const wrongKeys = [
      '',
      FIXED_KEY.slice(0, -1),
      `${FIXED_KEY}A`,
      Buffer.alloc(32, 7).toString('hex'),
      Buffer.alloc(32, 7).toString('base64'),
      // The last character's spare bits changed: another spelling of the same bytes.
      `${FIXED_KEY.slice(0, -1)}d`,
    ];
    for (const wrong of wrongKeys) {
      expect(() => recipientKeyOf(wrong, 'leila@example.tn')).toThrow(RangeError);
    }
    expect(() => recipientKeyOf(FIXED_KEY, '   ')).toThrow(RangeError);
  });

  it('reads back only the recipient keys it writes', () => {
    const key = recipientKeyOf(FIXED_KEY, 'leila@example.tn');
    expect(recipientKeyBytes(key)?.toString('base64url')).toBe(key);
    for (const wrong of ['', key.slice(1), `${key}A`, 'leila@example.tn', FIXED_KEY]) {
      expect(recipientKeyBytes(wrong)).toBeUndefined();
    }
  });
});
