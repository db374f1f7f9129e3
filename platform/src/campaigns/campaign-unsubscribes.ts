import type { Redis } from '../redis-connection';
import { CampaignModel } from './campaign.model';
import { withCampaignLockOrThrow } from './campaign-lock';

/** How long an unsubscribe waits for the campaign's other writers (a progress fold takes milliseconds). */
const UNSUBSCRIBE_LOCK_WAIT_MS = 2000;

/**
 * Counts one more recipient who left through the campaign's mail, on the
 * campaign document the report reads: a number, nothing of the person. The
 * caller counts only an unsubscribe that took the address off (the
 * subscriber record moved to `unsubscribed`), so each recipient counts once
 * however often the link is followed. The write takes its turn among the
 * campaign's writers (campaign-lock.ts): on the embedded store an `$inc`
 * meeting a progress fold, or another unsubscribe, could lose one.
 */
export async function countCampaignUnsubscribe(
  redis: Redis,
  prefix: string,
  campaignId: string,
): Promise<void> {
  await withCampaignLockOrThrow(redis, prefix, campaignId, UNSUBSCRIBE_LOCK_WAIT_MS, () =>
    CampaignModel.updateOne({ _id: campaignId }, { $inc: { unsubscribeCount: 1 } }),
  );
}
