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

/** A campaign's bounces and complaints: each recipient counted once per kind. */
export interface CampaignMailEventCounts {
  hardBounces: number;
  softBounces: number;
  complaints: number;
}

const NO_MAIL_EVENTS: CampaignMailEventCounts = { hardBounces: 0, softBounces: 0, complaints: 0 };

const COUNT_NAMES: Record<MailEventKind, keyof CampaignMailEventCounts> = {
  'hard-bounce': 'hardBounces',
  'soft-bounce': 'softBounces',
  complaint: 'complaints',
};

/**
 * The bounces and complaints these campaigns' mails brought back, by
 * campaign id: distinct addresses per kind (a provider that reports one
 * bounce twice counts once). One read for a whole page of campaigns.
 */
export async function countCampaignMailEvents(
  campaignIds: readonly string[],
): Promise<Map<string, CampaignMailEventCounts>> {
  const rows = await MailEventModel.aggregate<{
    _id: { campaign: Types.ObjectId; kind: MailEventKind };
    count: number;
  }>([
    { $match: { campaign: trusted({ $in: campaignIds.map((id) => new Types.ObjectId(id)) }) } },
    { $group: { _id: { campaign: '$campaign', kind: '$kind', key: '$key' } } },
    {
      $group: {
        _id: { campaign: '$_id.campaign', kind: '$_id.kind' },
        count: { $sum: 1 },
      },
    },
  ]);
  const counts = new Map<string, CampaignMailEventCounts>();
  for (const { _id, count } of rows) {
    const id = String(_id.campaign);
    const known = counts.get(id) ?? { ...NO_MAIL_EVENTS };
    counts.set(id, { ...known, [COUNT_NAMES[_id.kind]]: count });
  }
  return counts;
}

export const noCampaignMailEvents = (): CampaignMailEventCounts => ({ ...NO_MAIL_EVENTS });
