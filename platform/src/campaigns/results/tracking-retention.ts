/**
 * Key destruction after the retention: for each anonymous campaign whose
 * send ended more than the agency's `tracking.keyRetentionDays` ago, the
 * campaign's tracking key goes (so no address can be turned into its
 * recipient key again) and so do the recipients' activity documents (the
 * only place recipient keys are kept); the counters stay. Run by a job
 * scheduler in the worker, hourly.
 */
import { type Types, trusted } from 'mongoose';
import { UNFINISHED_STATUSES } from '@agency/contracts';
import { CampaignModel } from '../campaign.model';
// The retention deletes activity documents only: the results document (counts
// and batch ids, no recipient) is the event writer's alone while its campaign exists.
import { activityCollection, resultsCollection } from './campaign-results.model';

const DAY_MS = 86_400_000;
/**
 * How long after a key's destruction the pass deletes activity again: a
 * writer that read the key just before it went may still write a recipient's
 * document just after the first deletion.
 */
const STRAGGLER_SWEEP_MS = 2 * DAY_MS;

export interface TrackingRetentionReport {
  /** Campaigns whose key was destroyed by this pass. */
  campaigns: number;
  /** Activity documents deleted. */
  activities: number;
}

/** Destroys the keys of the campaigns past the retention, one conditional update each. */
async function destroyExpiredKeys(now: Date, retentionDays: number): Promise<Types.ObjectId[]> {
  const endedBefore = new Date(now.getTime() - retentionDays * DAY_MS);
  const expired = await CampaignModel.find(
    {
      'tracking.mode': 'anonymous',
      'tracking.key': trusted({ $ne: null }),
      status: trusted({ $nin: UNFINISHED_STATUSES }),
      finishedAt: trusted({ $lte: endedBefore }),
    },
    { tracking: 1 },
  ).lean();
  const destroyed: Types.ObjectId[] = [];
  for (const campaign of expired) {
    // Only the key read: a resend that started meanwhile keeps its campaign out of this pass.
    const { modifiedCount } = await CampaignModel.updateOne(
      {
        _id: campaign._id,
        'tracking.key': campaign.tracking?.key,
        status: trusted({ $nin: UNFINISHED_STATUSES }),
      },
      { $set: { 'tracking.key': null, 'tracking.keyDestroyedAt': now } },
    );
    if (modifiedCount === 1) destroyed.push(campaign._id);
  }
  return destroyed;
}

/** One pass: destroys what is past the retention, and deletes any activity left under destroyed keys. */
export async function destroyExpiredTrackingKeys(
  now: Date,
  retentionDays: number,
): Promise<TrackingRetentionReport> {
  const destroyed = await destroyExpiredKeys(now, retentionDays);
  const recent = await CampaignModel.find(
    {
      'tracking.key': null,
      'tracking.keyDestroyedAt': trusted({ $gte: new Date(now.getTime() - STRAGGLER_SWEEP_MS) }),
    },
    { _id: 1 },
  ).lean();
  const campaigns = recent.map(({ _id }) => _id);
  if (campaigns.length === 0) return { campaigns: destroyed.length, activities: 0 };
  const { deletedCount } = await activityCollection().deleteMany({ campaign: { $in: campaigns } });
  return { campaigns: destroyed.length, activities: deletedCount };
}

/** A deleted campaign's results: its counters and every recipient's activity. */
export async function deleteCampaignResults(campaignId: Types.ObjectId): Promise<void> {
  await activityCollection().deleteMany({ campaign: campaignId });
  await resultsCollection().deleteOne({ _id: campaignId });
}
