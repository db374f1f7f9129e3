import { Types, trusted } from 'mongoose';
import type {
  CampaignRecipientDto,
  CampaignRecipientQuery,
  LedgerState,
  MailEventKind,
  Page,
  RecipientMailEventDto,
} from '@agency/contracts';
import {
  MailEventModel,
  findCampaignRound,
  normalizeEmail,
  readLedgerPage,
  pageOf,
  skipOf,
} from '@agency/platform';
import { HttpError } from '../../errors';

/**
 * The latest bounce or complaint each address of a page brought back from
 * this campaign: a few reads of a small collection.
 */
async function mailEventsOf(
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

/**
 * One page of the ledger: `failed` lists the current round's failures (with
 * the server's reply), `sent` every delivery of every round, `pending` the
 * current round's recipients still without an outcome.
 */
export async function listCampaignRecipients(
  id: string,
  query: CampaignRecipientQuery,
): Promise<Page<CampaignRecipientDto>> {
  const round = await findCampaignRound(id);
  if (round === null) throw new HttpError('NOT_FOUND', 'No campaign with this id');
  const { lines, total } = await readLedgerPage(id, {
    state: query.state ?? 'failed',
    round,
    descending: query.sort.startsWith('-'),
    skip: skipOf(query),
    limit: query.pageSize,
  });
  const eventOf = await mailEventsOf(
    id,
    lines.map(({ email }) => email),
  );
  return pageOf(
    lines.map((line) => ({
      email: line.email,
      state: (line.state ?? 'pending') as LedgerState,
      reason: line.reason ?? null,
      attempts: line.attempts ?? 0,
      round: line.round ?? round,
      // A recipient still owed shows when its batch was queued.
      at: (line.at ?? line.queuedAt ?? new Date()).toISOString(),
      mailEvent: eventOf.get(normalizeEmail(line.email)) ?? null,
    })),
    total,
    query,
  );
}
