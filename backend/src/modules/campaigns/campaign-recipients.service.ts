import type {
  CampaignRecipientDto,
  CampaignRecipientQuery,
  LedgerState,
  Page,
} from '@agency/contracts';
import {
  findCampaignRound,
  latestCampaignMailEvents,
  normalizeEmail,
  readLedgerPage,
  pageOf,
  skipOf,
} from '@agency/platform';
import { HttpError } from '../../errors';

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
  const eventOf = await latestCampaignMailEvents(
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
