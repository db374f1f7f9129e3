import type { Redis } from '../redis-connection';
import { COUNT_FIELDS, statsKeys } from './kept-counts';

/**
 * Erasing a person: the kept figures' per-address hashes name the address.
 * Its subscription's field goes with one off its status's count; the
 * audience counts, which it may also have moved, are made right by the
 * scheduled reconciliation (they are counts, not records of the person).
 * Enquiries leave their hash through the contacts' own changes.
 */
export async function forgetAddressInKeptCounts(
  redis: Redis,
  prefix: string,
  key: string,
): Promise<void> {
  // The time zone names only the days' key, which holds no address.
  const keys = statsKeys(prefix, 'UTC');
  const status = await redis.hget(keys.subscriberStatus, key);
  if (status !== null && (await redis.hdel(keys.subscriberStatus, key)) === 1) {
    await redis.hincrby(keys.counts, COUNT_FIELDS.subscribers(status), -1);
  }
  await redis.hdel(keys.enquiriesPerAddress, key);
  await redis.hdel(keys.consentedPerAddress, key);
}
