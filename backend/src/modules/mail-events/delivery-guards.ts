import { createHash } from 'node:crypto';
import type { MailEventProvider } from '@agency/contracts';
import type { Redis } from '@agency/platform';
import { HttpError } from '../../errors';

export interface Freshness {
  /** Now, in unix seconds. */
  now: number;
  toleranceSeconds: number;
  /** Extra age the provider's own retries need (SNS resends one signed message for up to an hour). */
  retrySeconds: number;
}

/**
 * Refuses a signed timestamp outside the tolerance: a captured delivery
 * could otherwise be sent again at any later time (the generic and SendGrid
 * signatures took `t=1`), and one from the future would stay fresh for ever.
 */
export function refuseUnfresh(
  signedAt: number | undefined,
  { now, toleranceSeconds, retrySeconds }: Freshness,
): void {
  if (signedAt === undefined) {
    throw new HttpError('UNAUTHENTICATED', 'The signed timestamp is missing or unreadable');
  }
  const oldest = toleranceSeconds + retrySeconds;
  if (signedAt < now - oldest) {
    throw new HttpError(
      'UNAUTHENTICATED',
      `The signed timestamp is more than ${oldest} seconds old: a delivery is taken only while its signature is fresh`,
    );
  }
  if (signedAt > now + toleranceSeconds) {
    throw new HttpError(
      'UNAUTHENTICATED',
      `The signed timestamp is more than ${toleranceSeconds} seconds ahead of this server's clock`,
    );
  }
}

/** Gives back a token taken by `claimOnce`, when what it carried could not be recorded. */
export type ReleaseToken = () => Promise<void>;

export interface OnceTokenStore {
  redis: Redis;
  prefix: string;
}

function tokenKey(prefix: string, provider: MailEventProvider, token: string): string {
  // Hashed: the key stays short and alike whatever the provider puts in a token.
  const digest = createHash('sha256').update(token).digest('hex');
  return `${prefix}:mail-events:token:${provider}:${digest}`;
}

/**
 * Takes a signed token for `ttlSeconds` (until its timestamp leaves the
 * tolerance, after which the timestamp alone refuses it). A second use is a
 * 409. Without Redis nothing can tell a replay, so the delivery is refused
 * with 503 and the provider sends it again later.
 */
export async function claimOnce(
  { redis, prefix }: OnceTokenStore,
  provider: MailEventProvider,
  token: string,
  ttlSeconds: number,
): Promise<ReleaseToken> {
  const key = tokenKey(prefix, provider, token);
  let taken: string | null;
  try {
    taken = await redis.set(key, '1', 'EX', Math.max(1, Math.ceil(ttlSeconds)), 'NX');
  } catch {
    throw new HttpError('UNAVAILABLE', 'Replays cannot be checked right now; send it again later');
  }
  if (taken !== 'OK') {
    throw new HttpError(
      'CONFLICT',
      'This signature token was already used: each signed delivery is taken once',
    );
  }
  return async () => {
    await redis.del(key).catch(() => undefined);
  };
}
