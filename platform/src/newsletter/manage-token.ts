import type { KeyObject } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { derivedKey } from '../derived-key';
import { hmacSha256Of, type HmacSha256 } from '../hmac-sha256';
import { signHs256Jws } from '../hs256-jws';
import { normalizeEmail } from '../mail/email-address';

/**
 * The "Manage your subscription" link's token: a JWS (HS256) naming the
 * address, for the purpose `manage` alone (its audience), signed with a key
 * derived from MAIL_LINK_SECRET for one key period. The key's period is the
 * token's `kid`: a link works while its key is the current one or the one
 * before, so it lives between one and two periods and then expires with its
 * key. Unlike the unsubscribe link, which must work forever, this one opens
 * a page that changes lists and language, so an old mail must not stay a
 * key to it; the page offers the unsubscribe link's effect too.
 */
export const MANAGE_KEY_PERIOD_DAYS = 90;
const PERIOD_MS = MANAGE_KEY_PERIOD_DAYS * 24 * 60 * 60 * 1000;
const AUDIENCE = 'newsletter-manage';
const ALGORITHM = 'HS256';
// HKDF gives each period a key of its own, apart from every other use of the secret.
const HKDF_SALT = 'agency manage links';
const KEY_ID = /^\d{1,6}$/;

/** The period a moment falls in: the key signing links written then. */
export function manageKeyPeriod(at: Date): number {
  return Math.floor(at.getTime() / PERIOD_MS);
}

function periodKey(secret: string, period: number): KeyObject {
  return derivedKey(secret, HKDF_SALT, `manage link key, period ${period}, version 1`);
}

let lastSigningKey: { secret: string; period: number; mac: HmacSha256 } | undefined;

/** The period key's HMAC, padded once per secret and period: a campaign signs one token per mail. */
function periodMacOf(secret: string, period: number): HmacSha256 {
  if (lastSigningKey?.secret !== secret || lastSigningKey.period !== period) {
    const mac = hmacSha256Of(periodKey(secret, period).export());
    lastSigningKey = { secret, period, mac };
  }
  return lastSigningKey.mac;
}

/**
 * The token of a recipient's manage link, signed with the current period's
 * key: the text jsonwebtoken writes for it (header `kid`, claims `aud` and
 * `sub`, no `iat`), without its per-call work, and verified by it as before.
 */
export function signManageToken(email: string, secret: string, at: Date = new Date()): string {
  const period = manageKeyPeriod(at);
  return signHs256Jws(
    { aud: AUDIENCE, sub: normalizeEmail(email) },
    periodMacOf(secret, period),
    String(period),
  );
}

export type ManageTokenCheck =
  { outcome: 'valid'; email: string } | { outcome: 'expired' } | { outcome: 'invalid' };

/** The period a token says it was signed in, or undefined when it names none of ours. */
function claimedPeriod(token: string): number | undefined {
  try {
    const kid = jwt.decode(token, { complete: true })?.header.kid;
    return typeof kid === 'string' && KEY_ID.test(kid) ? Number(kid) : undefined;
  } catch {
    // A header that is not JSON (a changed byte can do that): not ours, never an error.
    return undefined;
  }
}

/**
 * Whether a manage link's token is ours and still open. Only a genuine
 * token (signature, purpose and address) is ever called expired: anything
 * tampered, truncated, signed with another key or for another purpose is
 * invalid, so the answer never tells a forger which part was wrong.
 */
export function verifyManageToken(
  token: string,
  secret: string,
  now: Date = new Date(),
): ManageTokenCheck {
  const period = claimedPeriod(token);
  const current = manageKeyPeriod(now);
  if (period === undefined || period > current) return { outcome: 'invalid' };
  let subject: unknown;
  try {
    const claims = jwt.verify(token, periodKey(secret, period), {
      algorithms: [ALGORITHM],
      audience: AUDIENCE,
    });
    subject = typeof claims === 'object' ? claims.sub : undefined;
  } catch {
    return { outcome: 'invalid' };
  }
  if (typeof subject !== 'string' || !subject) return { outcome: 'invalid' };
  if (period < current - 1) return { outcome: 'expired' };
  return { outcome: 'valid', email: subject };
}
