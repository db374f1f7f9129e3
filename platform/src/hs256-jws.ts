import type { HmacSha256 } from './hmac-sha256';

/**
 * A compact JWS (RFC 7515) signed with HS256, written exactly as
 * jsonwebtoken's `sign` writes it for the same claims (header `alg`, `typ`,
 * then `kid` when given; the claims in the order given, in UTF-8; unpadded
 * base64url), so a token made here and one made there are the same text, and
 * jsonwebtoken verifies both. The worker signs two per campaign mail, and
 * jsonwebtoken's option checks and key handling cost more than the MAC.
 * Claims must be the JSON values jsonwebtoken would take as they are
 * (strings, numbers): no `iat`, which it would add or drop on its own.
 */
export function signHs256Jws(
  claims: Readonly<Record<string, string>>,
  mac: HmacSha256,
  keyId?: string,
): string {
  const signed = `${headerOf(keyId)}.${base64urlOf(JSON.stringify(claims))}`;
  return `${signed}.${mac(signed, 'base64url')}`;
}

/** One entry without a key id, and one per manage-link period (90 days) a process lives through. */
const HEADERS = new Map<string | undefined, string>();

/** The encoded header, made once per key id: the same for every token of a key. */
function headerOf(keyId: string | undefined): string {
  let header = HEADERS.get(keyId);
  if (header === undefined) {
    header = base64urlOf(JSON.stringify({ alg: 'HS256', typ: 'JWT', kid: keyId }));
    HEADERS.set(keyId, header);
  }
  return header;
}

function base64urlOf(json: string): string {
  return Buffer.from(json).toString('base64url');
}
