import type { PrivacyLinkPurpose } from '@agency/contracts';
import {
  claimPrivacyLink,
  isPrivacyLinkSpent,
  releasePrivacyLink,
  verifyPrivacyLinkToken,
  type Redis,
} from '@agency/platform';
import { HttpError } from '../../errors';

export interface PrivacyLinkKeys {
  redis: Redis;
  prefix: string;
  /** Signs and checks the mailed links (the mail links' secret). */
  mailLinkSecret: string;
}

export interface OpenPrivacyLink {
  email: string;
  id: string;
  expiresAt: Date;
}

function linkSpent(): HttpError {
  return new HttpError(
    'LINK_EXPIRED',
    'This link was already used: ask for a new one on your preference page',
  );
}

/** The spent links live in Redis: when it does not answer, the person is told to try again. */
async function spentLinks<T>(operation: () => Promise<T>): Promise<T> {
  try {
    return await operation();
  } catch {
    throw new HttpError('UNAVAILABLE', 'This link cannot be checked now; try again shortly');
  }
}

/**
 * The address a mailed privacy link names, for its purpose alone: 404 for
 * anything not ours (tampered, another purpose), 410 once it has expired
 * or been used. Never a 500, and never which part of a forgery was wrong.
 */
export async function openPrivacyLink(
  keys: PrivacyLinkKeys,
  token: string,
  purpose: PrivacyLinkPurpose,
  now = new Date(),
): Promise<OpenPrivacyLink> {
  const check = verifyPrivacyLinkToken(token, purpose, keys.mailLinkSecret, now);
  if (check.outcome === 'invalid') throw new HttpError('NOT_FOUND', 'This link is not valid');
  if (check.outcome === 'expired') {
    throw new HttpError(
      'LINK_EXPIRED',
      'This link has expired: ask for a new one on your preference page',
    );
  }
  const spent = await spentLinks(() => isPrivacyLinkSpent(keys.redis, keys.prefix, check.id));
  if (spent) throw linkSpent();
  return { email: check.email, id: check.id, expiresAt: check.expiresAt };
}

/**
 * Spends an open link, then does what it is for. Only the first of two
 * clicks at the same moment passes. When the work fails (Redis or the store
 * did not answer), the link is given back so that the person can try again.
 */
export async function spendPrivacyLink<T>(
  keys: PrivacyLinkKeys,
  link: OpenPrivacyLink,
  work: () => Promise<T>,
): Promise<T> {
  const claimed = await spentLinks(() => claimPrivacyLink(keys.redis, keys.prefix, link));
  if (!claimed) throw linkSpent();
  try {
    return await work();
  } catch (error: unknown) {
    await releasePrivacyLink(keys.redis, keys.prefix, link.id).catch(() => undefined);
    throw error;
  }
}
