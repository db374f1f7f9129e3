import type { LedgerState } from '@agency/contracts';
import { findCampaignNames } from './campaign-queries';
import { outcomeDocuments, rosters } from './ledger-collections';

/** One campaign mail to an address: which campaign, how it ended (pending until sent), and when. */
export interface CampaignMailToAddress {
  campaign: { id: string; name: string };
  state: LedgerState;
  /** When it was sent or refused, or when it was queued while pending. */
  at: Date;
  /** The SMTP server's reply when it refused the mail. */
  reason: string | null;
}

/**
 * The campaign mails queued for a normalised address, newest first, at most
 * `max`: its batches are found by the rosters' index on the recipients' key,
 * and each one's outcome by the batch's `_id`. A campaign deleted since is
 * left out with its ledger.
 */
export async function findCampaignMailsToAddress(
  key: string,
  max: number,
): Promise<CampaignMailToAddress[]> {
  const batches = await rosters()
    .find({ 'recipients.key': key })
    .sort({ createdAt: -1 })
    .limit(max)
    .toArray();
  if (batches.length === 0) return [];
  const [outcomes, names] = await Promise.all([
    outcomeDocuments()
      .find({ _id: { $in: batches.map(({ _id }) => _id) } })
      .toArray(),
    findCampaignNames([...new Set(batches.map(({ campaign }) => String(campaign)))]),
  ]);
  const outcomesOf = new Map(outcomes.map((document) => [document._id, document.outcomes]));
  return batches.flatMap((batch) => {
    const name = names.get(String(batch.campaign));
    const position = batch.recipients.findIndex((recipient) => recipient.key === key);
    if (name === undefined || position < 0) return [];
    const outcome = outcomesOf.get(batch._id)?.find((line) => line.position === position);
    return [
      {
        campaign: { id: String(batch.campaign), name },
        state: outcome?.state ?? 'pending',
        at: outcome?.at ?? batch.createdAt,
        reason: outcome?.reason ?? null,
      },
    ];
  });
}
