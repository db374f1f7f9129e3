import type { Redis } from '../redis-connection';

/**
 * Whether the worker can reach the SMTP server, as the last send or probe
 * found it. The API never speaks SMTP: it reads this to tell staff about an
 * outage, and the worker writes it. Nothing stored means reachable, so a new
 * installation, or a Redis that lost its data, shows no outage until a send
 * fails again.
 */
export type MailServerState =
  | { status: 'reachable' }
  | {
      status: 'unreachable';
      /** When the first send of this outage failed. */
      since: Date;
      /** The connection's error code (ECONNREFUSED, ETIMEDOUT...), or its message when it had none. */
      lastError: string;
      /** When a send or a probe last failed to reach it. */
      checkedAt: Date;
    };

/** One hash per installation, under the queue prefix like every key of ours. */
function mailServerKey(prefix: string): string {
  return `${prefix}:mail-server`;
}

/**
 * Notes a failed connection. The outage's `since` is written only once
 * (HSETNX): later failures and probes move `checkedAt` and the error, not
 * the start, whichever worker process sees them.
 */
export async function markMailServerUnreachable(
  redis: Redis,
  prefix: string,
  lastError: string,
  at: Date = new Date(),
): Promise<void> {
  const key = mailServerKey(prefix);
  await redis
    .multi()
    .hsetnx(key, 'since', at.toISOString())
    .hset(key, { status: 'unreachable', lastError, checkedAt: at.toISOString() })
    .exec();
}

/** The first mail accepted, or a probe answered: the outage is over. */
export async function markMailServerReachable(redis: Redis, prefix: string): Promise<void> {
  await redis.del(mailServerKey(prefix));
}

export async function readMailServerState(redis: Redis, prefix: string): Promise<MailServerState> {
  const fields = await redis.hgetall(mailServerKey(prefix));
  if (fields.status !== 'unreachable' || !fields.since) return { status: 'reachable' };
  return {
    status: 'unreachable',
    since: new Date(fields.since),
    lastError: fields.lastError ?? '',
    checkedAt: new Date(fields.checkedAt ?? fields.since),
  };
}
