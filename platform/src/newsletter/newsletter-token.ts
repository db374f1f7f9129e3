import jwt from 'jsonwebtoken';
import { hmacSha256Of, type HmacSha256 } from '../hmac-sha256';
import { signHs256Jws } from '../hs256-jws';
import { normalizeEmail } from '../mail/email-address';

/**
 * The newsletter's mail links carry signed tokens (JWS, HS256) instead of
 * random values stored per subscriber: the worker can put a link in any mail
 * without a write per recipient (campaigns reach thousands), and an
 * unsubscribe link works for any address the agency mailed, subscriber or not.
 * The audience keeps a confirmation token from being used to unsubscribe and
 * the other way round.
 */
const AUDIENCES = {
  confirm: 'newsletter-confirm',
  unsubscribe: 'newsletter-unsubscribe',
} as const;

const ALGORITHM = 'HS256';

let lastKey: { secret: string; mac: HmacSha256 } | undefined;

/**
 * The secret's HMAC, padded once per secret: a campaign signs one unsubscribe
 * token per mail. jsonwebtoken keys HS256 with the secret's UTF-8 bytes, as here.
 */
function unsubscribeMacOf(secret: string): HmacSha256 {
  if (lastKey?.secret !== secret) lastKey = { secret, mac: hmacSha256Of(Buffer.from(secret)) };
  return lastKey.mac;
}

/** A confirmation token names the subscriber and when its mail was written. */
export function signConfirmationToken(
  subscriberId: string,
  secret: string,
  issuedAt: Date = new Date(),
): string {
  return jwt.sign({ iat: Math.floor(issuedAt.getTime() / 1000) }, secret, {
    algorithm: ALGORITHM,
    audience: AUDIENCES.confirm,
    subject: subscriberId,
  });
}

export interface ConfirmationClaims {
  subscriberId: string;
  issuedAt: Date;
}

/**
 * The claims of a genuine confirmation token, or undefined for anything else.
 * Its age is not judged here: the service decides what an old link still does.
 */
export function verifyConfirmationToken(
  token: string,
  secret: string,
): ConfirmationClaims | undefined {
  const claims = verify(token, secret, AUDIENCES.confirm);
  if (!claims || typeof claims.iat !== 'number') return undefined;
  return { subscriberId: claims.sub, issuedAt: new Date(claims.iat * 1000) };
}

/**
 * An unsubscribe token names the address and never expires: an unsubscribe
 * link must keep working in any mail ever sent. A campaign's mail also names
 * the campaign (claim `cmp`), so the unsubscribe counts in its report; the
 * newsletter's mails, test sends and the links mailed before have none, and
 * work as they did. One token per address (and campaign): a campaign computes
 * it once per recipient, so it is signed without jsonwebtoken's per-call work,
 * into the very text jsonwebtoken writes (claims `cmp`, `aud`, `sub`, no
 * `iat`), which it verifies as before.
 */
export function signUnsubscribeToken(email: string, secret: string, campaignId?: string): string {
  if (campaignId !== undefined && !CAMPAIGN_ID.test(campaignId)) {
    throw new RangeError('A campaign id is 24 lower-case hex digits');
  }
  const audience = { aud: AUDIENCES.unsubscribe, sub: normalizeEmail(email) };
  return signHs256Jws(
    campaignId === undefined ? audience : { cmp: campaignId, ...audience },
    unsubscribeMacOf(secret),
  );
}

const CAMPAIGN_ID = /^[0-9a-f]{24}$/;

export interface UnsubscribeClaims {
  email: string;
  /** The campaign whose mail carried the link; null for any other link. */
  campaignId: string | null;
}

/** What a genuine unsubscribe token names, or undefined. */
export function verifyUnsubscribeLink(
  token: string,
  secret: string,
): UnsubscribeClaims | undefined {
  const claims = verify(token, secret, AUDIENCES.unsubscribe);
  if (!claims) return undefined;
  const campaign: unknown = claims.cmp;
  // Only we sign: a claim of another shape is none of ours, and names no campaign.
  const campaignId = typeof campaign === 'string' && CAMPAIGN_ID.test(campaign) ? campaign : null;
  return { email: claims.sub, campaignId };
}

/** The address a genuine unsubscribe token names, or undefined. */
export function verifyUnsubscribeToken(token: string, secret: string): string | undefined {
  return verifyUnsubscribeLink(token, secret)?.email;
}

function verify(
  token: string,
  secret: string,
  audience: string,
): (jwt.JwtPayload & { sub: string }) | undefined {
  try {
    const claims = jwt.verify(token, secret, { algorithms: [ALGORITHM], audience });
    if (typeof claims !== 'object' || typeof claims.sub !== 'string' || !claims.sub) {
      return undefined;
    }
    return { ...claims, sub: claims.sub };
  } catch {
    // Tampered, truncated, signed with another key or meant for another use.
    return undefined;
  }
}
