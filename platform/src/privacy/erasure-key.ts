import { createHmac } from 'node:crypto';
import { derivedKeyBytes } from '../derived-key';
import { normalizeEmail } from '../mail/email-address';

/**
 * What stands for an erased address: an HMAC of the normalised address under
 * a key derived from MAIL_LINK_SECRET, the installation's secret that the
 * API and the worker share. Never a plain hash: the addresses worth guessing
 * are few enough to hash them all, and an unkeyed digest would name the
 * person to anyone holding a database copy. Under the key, only the
 * installation can tell whether an address is the one erased, which is all
 * it needs: to refuse it on an import, and to find the erasure again.
 */
export interface ErasureKey {
  readonly digestKey: Buffer;
}

// HKDF gives erasure a key of its own: the same secret signs the mail links,
// and the mail identities derive theirs with another label.
const HKDF_SALT = 'agency erased addresses';
const HKDF_INFO = 'erasure id and erased-address digest, version 1';

export function erasureKeyOf(mailLinkSecret: string): ErasureKey {
  return { digestKey: derivedKeyBytes(mailLinkSecret, HKDF_SALT, HKDF_INFO) };
}

/**
 * 128 bits of the HMAC in hex: the erasure's id, and the digest on the
 * erased-addresses list. Long enough that two addresses never share one.
 */
const DIGEST_HEX_LENGTH = 32;

export function erasedAddressDigest(key: ErasureKey, address: string): string {
  return createHmac('sha256', key.digestKey)
    .update(normalizeEmail(address))
    .digest('hex')
    .slice(0, DIGEST_HEX_LENGTH);
}

/** What replaces the address in sent-mail records: not an address, so no mail can ever go to it. */
export function erasedAddressToken(digest: string): string {
  return `erased:${digest}`;
}
