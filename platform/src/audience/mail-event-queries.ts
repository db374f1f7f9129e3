import { Types, trusted } from 'mongoose';
import type { MailEventKind, RecipientMailEventDto } from '@agency/contracts';
import { normalizeEmail } from '../mail/email-address';
import { MailEventModel } from './mail-event.model';

/**
 * The latest bounce or complaint each of these addresses brought back from
 * a campaign, by normalised address: one read of a small collection, for a
 * page of the campaign's recipients.
 */
export async function latestCampaignMailEvents(
  campaignId: string,
  emails: readonly string[],
): Promise<Map<string, RecipientMailEventDto>> {
  const events = await MailEventModel.find({
    campaign: new Types.ObjectId(campaignId),
    key: trusted({ $in: [...new Set(emails.map(normalizeEmail))] }),
  }).lean();
  const latest = new Map<string, RecipientMailEventDto>();
  for (const event of events) {
    const known = latest.get(event.key);
    if (known && known.at >= event.at.toISOString()) continue;
    latest.set(event.key, {
      kind: event.kind as MailEventKind,
      at: event.at.toISOString(),
      provider: event.provider as RecipientMailEventDto['provider'],
      detail: event.detail ?? null,
    });
  }
  return latest;
}
