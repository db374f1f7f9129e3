/**
 * Individual results: who opened and who clicked what, for campaigns sent in
 * individual mode only (an anonymous campaign's activity names no one). Read
 * from the activity documents, by address, with the verdicts of the events
 * judged together; machines' events are left out.
 */
import { Types, trusted } from 'mongoose';
import type {
  CampaignPeopleExportQuery,
  CampaignPeopleQuery,
  CampaignPersonResultDto,
  Page,
} from '@agency/contracts';
import { DomainError } from '../../domain-error';
import { pageOf, prefixFilter, skipOf } from '../../list-pages';
import { normalizeEmail } from '../../mail/email-address';
import { CampaignModel } from '../campaign.model';
import { rejudgeRecipientEvents } from '../tracking/stored-event-verdicts';
import { CampaignActivityModel, type CampaignActivity } from './campaign-results.model';

/** The campaign's link table, after checking it exists and was sent in individual mode. */
async function individualCampaignLinks(id: string): Promise<string[]> {
  const campaign = Types.ObjectId.isValid(id)
    ? await CampaignModel.findById(id, { tracking: 1 }).lean()
    : null;
  if (!campaign) throw new DomainError('NOT_FOUND', 'No campaign with this id');
  if (campaign.tracking?.mode !== 'individual') {
    throw new DomainError(
      'CONFLICT',
      'This campaign was not sent in individual mode: its results name no one',
    );
  }
  return campaign.tracking.links ?? [];
}

function peopleFilter(
  id: string,
  { filter, search }: CampaignPeopleExportQuery,
): Record<string, unknown> {
  return {
    campaign: new Types.ObjectId(id),
    ...(filter === 'opened' ? { opened: true } : {}),
    ...(filter === 'clicked' ? { clicked: true } : {}),
    ...(filter === 'any' ? { $or: [{ opened: true }, { clicked: true }] } : {}),
    ...(search ? prefixFilter('email', normalizeEmail(search)) : { email: trusted({ $ne: null }) }),
  };
}

/** One recipient's row: people's opens and clicks, the links in the order first clicked. */
export function personResultOf(
  activity: CampaignActivity,
  links: readonly string[],
): CampaignPersonResultDto {
  const judged = rejudgeRecipientEvents(activity.events);
  const byPerson = judged.events.filter((event) => event.verdict === 'person');
  const opens = byPerson
    .filter((event) => event.kind === 'open')
    .map((event) => event.at)
    .sort();
  const clicks = byPerson.filter((event) => event.kind === 'click' && !event.trap);
  const clickedLinks = new Map<number, { index: number; url: string; at: string }>();
  for (const click of [...clicks].sort((a, b) => a.at.localeCompare(b.at))) {
    const index = click.linkIndex ?? -1;
    const url = links[index];
    if (url !== undefined && !clickedLinks.has(index))
      clickedLinks.set(index, { index, url, at: click.at });
  }
  return {
    email: activity.email ?? '',
    locale: activity.locale,
    opened: opens.length > 0 || judged.impliedOpenAt !== null,
    openImplied: opens.length === 0 && judged.impliedOpenAt !== null,
    firstOpenAt: opens[0] ?? judged.impliedOpenAt,
    opens: opens.length,
    clickedLinks: [...clickedLinks.values()],
    clicks: clicks.length,
  };
}

/** GET /api/admin/campaigns/{id}/report/people. */
export async function readCampaignPeoplePage(
  id: string,
  query: CampaignPeopleQuery,
): Promise<Page<CampaignPersonResultDto>> {
  const links = await individualCampaignLinks(id);
  const filter = peopleFilter(id, query);
  const descending = query.sort.startsWith('-');
  const [rows, total] = await Promise.all([
    CampaignActivityModel.find(filter)
      .sort({ email: descending ? -1 : 1 })
      .skip(skipOf(query))
      .limit(query.pageSize)
      .lean<CampaignActivity[]>(),
    CampaignActivityModel.countDocuments(filter),
  ]);
  return pageOf(
    rows.map((row) => personResultOf(row, links)),
    total,
    query,
  );
}

/**
 * Every matching recipient's row, read with a cursor (the export streams):
 * checked for individual mode before the first row.
 */
export async function campaignPeopleRows(
  id: string,
  query: CampaignPeopleExportQuery,
): Promise<AsyncIterable<CampaignPersonResultDto>> {
  const links = await individualCampaignLinks(id);
  const cursor = CampaignActivityModel.find(peopleFilter(id, query))
    .sort({ email: 1 })
    .lean<CampaignActivity[]>()
    .cursor();
  return (async function* rows() {
    for await (const activity of cursor) yield personResultOf(activity as CampaignActivity, links);
  })();
}

/** Erasing a person: their activity in every campaign goes (individual mode keeps it by address). */
export async function eraseCampaignActivityOf(email: string): Promise<number> {
  const { deletedCount } = await CampaignActivityModel.deleteMany({ email: normalizeEmail(email) });
  return deletedCount;
}
