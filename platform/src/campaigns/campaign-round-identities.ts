import { Types } from 'mongoose';
import { CampaignBatchModel, campaignBatchId } from './campaign-batch.model';

/** The mark each roster of a round sent with keyed identities carries. */
export const KEYED_IDENTITIES = 'keyed';

/**
 * How long after its start a round sent before keyed identities still has
 * its SHA-1 ones taken. Servers give up on a deferred mail after five days
 * (Postfix, Exim and sendmail by default) and providers retry a webhook for
 * three at most: a genuine report of such a round has arrived by then, and a
 * forged one (anyone can compute a SHA-1) is refused after it.
 */
export const LEGACY_IDENTITY_WINDOW_DAYS = 14;

/** A round as its identities are checked against: when it began, and with which identities. */
export interface CampaignRoundIdentities {
  keyed: boolean;
  startedAt: Date;
}

/**
 * The round's first roster, written by its dispatch before any of its mail
 * goes out: none means no mail of that round (nor that campaign) was sent.
 * A round begun before keyed identities keeps the old form on that roster,
 * whatever a later pass wrote.
 */
export async function campaignRoundIdentities(
  campaignId: string,
  round: number,
): Promise<CampaignRoundIdentities | undefined> {
  const first = await CampaignBatchModel.findById(campaignBatchId(campaignId, round, 0), {
    identity: 1,
    createdAt: 1,
  }).lean();
  if (!first) return undefined;
  return { keyed: first.identity === KEYED_IDENTITIES, startedAt: first.createdAt };
}

/** Whether the round's ledger holds this recipient (by normalised address). */
export async function wasInRound(campaignId: string, round: number, key: string): Promise<boolean> {
  const found = await CampaignBatchModel.exists({
    campaign: new Types.ObjectId(campaignId),
    round,
    'recipients.key': key,
  });
  return found !== null;
}
