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

/** A campaign's bounces and complaints, by address: each address counted once. */
export interface CampaignMailEventCounts {
  /** Addresses with a hard bounce. */
  hardBounces: number;
  /** Addresses with a soft bounce and no hard one. */
  softBounces: number;
  /** Addresses that complained. */
  complaints: number;
}

const NO_MAIL_EVENTS: CampaignMailEventCounts = { hardBounces: 0, softBounces: 0, complaints: 0 };

/** What one address's kinds of event add to its campaign's counts. */
function countsOfAddress(kinds: ReadonlySet<MailEventKind>): CampaignMailEventCounts {
  const hard = kinds.has('hard-bounce');
  return {
    hardBounces: hard ? 1 : 0,
    softBounces: !hard && kinds.has('soft-bounce') ? 1 : 0,
    complaints: kinds.has('complaint') ? 1 : 0,
  };
}

/**
 * The bounces and complaints these campaigns' mails brought back, by
 * campaign id: an address bounced twice (a soft bounce, then a hard one on a
 * later round) counts once, as hard. One read for a whole page of campaigns
 * of the three fields counted, grouped here: FerretDB 1.x runs a `$group`
 * in time that grows with the square of its rows (about 1 s at 2,000 mail
 * events, against about 120 ms for this read), and MongoDB serves both from
 * the campaign index.
 */
export async function countCampaignMailEvents(
  campaignIds: readonly string[],
): Promise<Map<string, CampaignMailEventCounts>> {
  const rows = await MailEventModel.find(
    { campaign: trusted({ $in: campaignIds.map((id) => new Types.ObjectId(id)) }) },
    { _id: 0, campaign: 1, key: 1, kind: 1 },
  ).lean<{ campaign: Types.ObjectId; key: string; kind: MailEventKind }[]>();
  const kindsByAddress = new Map<string, { campaign: string; kinds: Set<MailEventKind> }>();
  for (const row of rows) {
    const address = `${String(row.campaign)} ${row.key}`;
    const known = kindsByAddress.get(address) ?? {
      campaign: String(row.campaign),
      kinds: new Set(),
    };
    known.kinds.add(row.kind);
    kindsByAddress.set(address, known);
  }
  const counts = new Map<string, CampaignMailEventCounts>();
  for (const { campaign, kinds } of kindsByAddress.values()) {
    const known = counts.get(campaign) ?? { ...NO_MAIL_EVENTS };
    const added = countsOfAddress(kinds);
    counts.set(campaign, {
      hardBounces: known.hardBounces + added.hardBounces,
      softBounces: known.softBounces + added.softBounces,
      complaints: known.complaints + added.complaints,
    });
  }
  return counts;
}

export const noCampaignMailEvents = (): CampaignMailEventCounts => ({ ...NO_MAIL_EVENTS });
