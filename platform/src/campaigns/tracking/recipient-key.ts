import { randomBytes } from 'node:crypto';
import { hmacSha256Of } from '../../hmac-sha256';
import { normalizeEmail } from '../../mail/email-address';
import { bytesOfBase64url } from './base64url-bytes';

/**
 * Recipient keys: what a campaign's tracking links and open pixel carry, and
 * what its open and click events will be stored under, instead of the address.
 * Links get forwarded and logged by proxies, so the address never goes into
 * them. A recipient key is an HMAC of the normalised address under a key made
 * for that campaign alone (stored on the campaign):
 * - unique counts work, since one recipient always has one key in a campaign;
 * - two campaigns give one address unrelated keys, so events are not joined
 *   across campaigns by their keys;
 * - while the campaign's key exists, the API can tie a key back to an address
 *   by hashing the addresses of the campaign's ledger (individual mode);
 * - once it is destroyed (anonymous mode, N days after the campaign ends), no
 *   stored key can be tied to an address any more: the address space is small
 *   enough to guess, so an unkeyed hash would not do.
 *
 * The mail rendering will call `recipientKeyOf` once per recipient, and the
 * campaign's creation `newCampaignTrackingKey`.
 */

/** 256 random bits, the HMAC-SHA-256 key size. */
export const CAMPAIGN_TRACKING_KEY_BYTES = 32;

/**
 * 128 bits of the HMAC. The key, not this length, keeps the address secret;
 * the length is chosen against collisions, which would merge two recipients'
 * unique counts or, in individual mode, name the wrong person: for a campaign
 * of ten million recipients the chance of any collision is about 1.5e-25
 * (64 bits would give 2.7e-6, too close for a value stored for years).
 */
export const RECIPIENT_KEY_BYTES = 16;

/**
 * A new campaign's tracking key, in base64url (43 characters), as the campaign
 * stores it: a string is kept alike by MongoDB and FerretDB and reads the same
 * in a log or an export.
 */
export function newCampaignTrackingKey(): string {
  return randomBytes(CAMPAIGN_TRACKING_KEY_BYTES).toString('base64url');
}

/**
 * The recipient key of an address in one campaign: 22 base64url characters,
 * the same for every spelling of the address that `normalizeEmail` makes one.
 * Throws on a malformed campaign key or an empty address, which only a bug of
 * ours can pass: a key silently made another way could never be tied back.
 */
export function recipientKeyOf(campaignKey: string, address: string): string {
  return recipientKeysOf(campaignKey)(address);
}

/**
 * `recipientKeyOf` for one campaign's many recipients: the campaign key is
 * read and its HMAC padded once, not once per recipient. Throws at once on
 * a malformed campaign key, and per call on an empty address.
 */
export function recipientKeysOf(campaignKey: string): (address: string) => string {
  const key = bytesOfBase64url(campaignKey, CAMPAIGN_TRACKING_KEY_BYTES);
  if (!key) throw new RangeError('A campaign tracking key is 32 bytes in base64url');
  const mac = hmacSha256Of(key);
  return (address) => {
    const mailbox = normalizeEmail(address);
    if (!mailbox) throw new RangeError('A recipient key is made of an address; this one is empty');
    return mac(mailbox).toString('base64url', 0, RECIPIENT_KEY_BYTES);
  };
}

/** The 16 bytes a recipient key stands for, or undefined if it is not one. */
export function recipientKeyBytes(recipientKey: string): Buffer | undefined {
  return bytesOfBase64url(recipientKey, RECIPIENT_KEY_BYTES);
}
