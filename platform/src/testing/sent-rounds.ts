import { Types } from 'mongoose';
import { CampaignBatchModel, campaignBatchId } from '../campaigns/campaign-batch.model';
import { KEYED_IDENTITIES } from '../campaigns/campaign-round-identities';
import { normalizeEmail } from '../mail/email-address';

/**
 * The ledger of a campaign round as its dispatch writes it: one roster with
 * these recipients. `keyed: false` makes a round begun before keyed
 * identities (its roster unmarked), `startedAt` when it began.
 */
export async function recordSentRound(
  campaignId: string,
  round: number,
  emails: readonly string[],
  { keyed = true, startedAt = new Date() }: { keyed?: boolean; startedAt?: Date } = {},
): Promise<void> {
  await CampaignBatchModel.create({
    _id: campaignBatchId(campaignId, round, 0),
    campaign: new Types.ObjectId(campaignId),
    round,
    seq: 0,
    recipients: emails.map((email) => ({ key: normalizeEmail(email), email })),
    createdAt: startedAt,
    ...(keyed ? { identity: KEYED_IDENTITIES } : {}),
  });
}
