import { randomUUID } from 'node:crypto';
import { campaignLockApplies } from '../embedded-store';
import type { Redis } from '../redis-connection';

/**
 * Writers of one campaign document take turns (the workaround `campaignLock`
 * of embedded-store.ts, on every store unless a test turns it off). The
 * embedded store (FerretDB 1.x) applies an update by reading the document
 * and writing it back whole, so two updates of one document at once can lose
 * one (a progress fold arriving just after the "sent" update put "sending"
 * back; measured in bench:mail). On MongoDB each write it guards is a
 * conditional update, right on its own; there the lock keeps a schedule
 * change and its delayed job together against the worker's start. It costs
 * one Redis round trip.
 */
const LOCK_TTL_MS = 5000;
const RETRY_MS = 15;
const RELEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;

export function campaignLockKey(prefix: string, campaignId: string): string {
  return `${prefix}:campaign:${campaignId}:lock`;
}

export class CampaignBusyError extends Error {}

/**
 * Runs `write` holding the campaign's lock (without it when the workaround is
 * off). With `waitMs` 0 it gives up at once when another writer holds it
 * (answers undefined): for writes the next batch makes anyway, such as a
 * progress fold.
 */
export async function withCampaignLock<T>(
  redis: Redis,
  prefix: string,
  campaignId: string,
  waitMs: number,
  write: () => Promise<T>,
): Promise<T | undefined> {
  if (!campaignLockApplies()) return write();
  const key = campaignLockKey(prefix, campaignId);
  const token = randomUUID();
  const deadline = Date.now() + waitMs;
  for (;;) {
    if ((await redis.set(key, token, 'PX', LOCK_TTL_MS, 'NX')) === 'OK') break;
    if (Date.now() >= deadline) return undefined;
    await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
  }
  try {
    return await write();
  } finally {
    await redis.eval(RELEASE, 1, key, token);
  }
}

/** The same, for a write that must happen: throws CampaignBusyError when the wait runs out. */
export async function withCampaignLockOrThrow<T>(
  redis: Redis,
  prefix: string,
  campaignId: string,
  waitMs: number,
  write: () => Promise<T>,
): Promise<T> {
  let ran = false;
  const result = await withCampaignLock(redis, prefix, campaignId, waitMs, async () => {
    ran = true;
    return write();
  });
  if (!ran) throw new CampaignBusyError(`campaign ${campaignId} is being written; try again`);
  return result as T;
}
