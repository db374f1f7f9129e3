import { randomBytes, type KeyObject } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { derivedKey } from '../derived-key';
import {
  PRIVACY_LINK_PURPOSES,
  PRIVACY_LINK_TTL_HOURS,
  type PrivacyLinkPurpose,
} from '@agency/contracts';
import { normalizeEmail } from '../mail/email-address';
import type { Redis } from '../redis-connection';

/**
 * A person's own download or erasure link: a JWS (HS256) naming the address,
 * for one purpose (its audience), with a random id and a 24-hour expiry,
 * signed with a key derived from MAIL_LINK_SECRET for these links alone.
 * The token is never stored: its id, once spent, is (see claimPrivacyLink).
 */
const ALGORITHM = 'HS256';
const HKDF_SALT = 'agency privacy links';
const TTL_SECONDS = PRIVACY_LINK_TTL_HOURS * 3600;

function linkKey(secret: string): KeyObject {
  return derivedKey(secret, HKDF_SALT, 'privacy link key, version 1');
}

function audienceOf(purpose: PrivacyLinkPurpose): string {
  return `privacy-${purpose}`;
}

/** A new link's token for the address and purpose, open for 24 hours from `at`. */
export function signPrivacyLinkToken(
  email: string,
  purpose: PrivacyLinkPurpose,
  secret: string,
  at: Date = new Date(),
): string {
  return jwt.sign({ iat: Math.floor(at.getTime() / 1000) }, linkKey(secret), {
    algorithm: ALGORITHM,
    audience: audienceOf(purpose),
    subject: normalizeEmail(email),
    jwtid: randomBytes(16).toString('base64url'),
    expiresIn: TTL_SECONDS,
  });
}

export type PrivacyLinkCheck =
  | { outcome: 'valid'; email: string; id: string; expiresAt: Date }
  | { outcome: 'expired' }
  | { outcome: 'invalid' };

interface PrivacyClaims {
  sub?: unknown;
  jti?: unknown;
  exp?: unknown;
}

/** The claims of a token with our signature and this purpose, or undefined. */
function verifiedClaims(
  token: string,
  purpose: PrivacyLinkPurpose,
  secret: string,
): PrivacyClaims | undefined {
  try {
    // Expiry is judged after the signature and purpose: only a genuine link is "expired".
    const claims = jwt.verify(token, linkKey(secret), {
      algorithms: [ALGORITHM],
      audience: audienceOf(purpose),
      ignoreExpiration: true,
    });
    return typeof claims === 'object' ? (claims as PrivacyClaims) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether a privacy link's token is ours, for this purpose, and still in
 * time. Anything tampered, signed with another key or for another purpose is
 * invalid, so the answer never tells a forger which part was wrong.
 */
export function verifyPrivacyLinkToken(
  token: string,
  purpose: PrivacyLinkPurpose,
  secret: string,
  now: Date = new Date(),
): PrivacyLinkCheck {
  if (!PRIVACY_LINK_PURPOSES.includes(purpose)) return { outcome: 'invalid' };
  const claims = verifiedClaims(token, purpose, secret);
  const { sub, jti, exp } = claims ?? {};
  if (typeof sub !== 'string' || !sub || typeof jti !== 'string' || !jti) {
    return { outcome: 'invalid' };
  }
  if (typeof exp !== 'number') return { outcome: 'invalid' };
  if (exp * 1000 <= now.getTime()) return { outcome: 'expired' };
  return { outcome: 'valid', email: sub, id: jti, expiresAt: new Date(exp * 1000) };
}

function usedKey(prefix: string, id: string): string {
  return `${prefix}:privacy-link-used:${id}`;
}

/**
 * Spends a link: true for the first caller only, so two clicks at the same
 * moment cannot both download or erase. The record names the link's random
 * id, never the address, and goes when the link would have expired anyway.
 */
export async function claimPrivacyLink(
  redis: Redis,
  prefix: string,
  link: { id: string; expiresAt: Date },
): Promise<boolean> {
  const claimed = await redis.set(
    usedKey(prefix, link.id),
    '1',
    'PXAT',
    link.expiresAt.getTime(),
    'NX',
  );
  return claimed === 'OK';
}

/** Whether a link was spent already: its page says so before the person acts. */
export async function isPrivacyLinkSpent(
  redis: Redis,
  prefix: string,
  id: string,
): Promise<boolean> {
  return (await redis.exists(usedKey(prefix, id))) === 1;
}

/** Gives a spent link back, when what it was spent on could not be done. */
export async function releasePrivacyLink(redis: Redis, prefix: string, id: string): Promise<void> {
  await redis.del(usedKey(prefix, id));
}
