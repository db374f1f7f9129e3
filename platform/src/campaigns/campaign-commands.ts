import {
  campaignCopyNames,
  fallbacksOf,
  type CampaignDto,
  type CampaignStatus,
  type EnquiryLawfulBasis,
  type Locale,
  type PlaceholderFallbacks,
  type RecipientType,
  type SendingWindow,
  UNFINISHED_STATUSES,
} from '@agency/contracts';
import type { Types } from 'mongoose';
import { findExistingListIds } from '../audience/list-existence';
import { findExistingSegmentIds } from '../audience/segments';
import { DomainError } from '../domain-error';
import { readAgencySettings } from '../settings/agency-settings.service';
import { CampaignModel } from './campaign.model';
import { mediaIdsIn } from './media-references';
import { toCampaignDto } from './campaign-dto';
import { deleteLedger } from './campaign-ledger-pages';
import { takenCampaignNames } from './campaign-queries';
import { deleteCampaignResults } from './results/tracking-retention';

/** What a draft is stored with: the request's fields, checked and sanitised by the API. */
export interface CampaignDraftFields {
  name: string;
  subject: string;
  content: string;
  fromAddress: string | null;
  replyTo: string | null;
  recipientType: RecipientType;
  listIds: string[];
  segmentIds: string[];
  /** Checked by the API: only an admin may set one. */
  enquiryLawfulBasis: EnquiryLawfulBasis | null;
  defaultLocale: Locale;
  translations: { locale: Locale; subject: string; content: string }[];
  placeholderFallbacks: PlaceholderFallbacks;
  templateId: string | null;
  sendingWindow: SendingWindow | null;
  ratePerMinute: number | null;
  /** The editor's two switches; missing: the agency's defaults on create, unchanged on update. */
  tracking?: CampaignTrackingSwitches;
  /** Shown on the public archive once sent. */
  publishToArchive: boolean;
}

/** Whether a campaign counts its opens (the pixel) and its clicks (tracking links). */
export interface CampaignTrackingSwitches {
  opens: boolean;
  clicks: boolean;
}

export const noCampaign = () => new DomainError('NOT_FOUND', 'No campaign with this id');

/** The refusal of a conditional write that matched nothing: the campaign is gone, or not in that state. */
export async function notFoundOrConflict(id: string, conflict: string): Promise<never> {
  const exists = await CampaignModel.exists({ _id: id });
  if (!exists) throw noCampaign();
  throw new DomainError('CONFLICT', conflict);
}

/** The agency's defaults for a new campaign's switches, as its settings say now. */
async function agencyTrackingSwitches(): Promise<CampaignTrackingSwitches> {
  const { opens, clicks } = (await readAgencySettings()).tracking;
  return { opens, clicks };
}

/** The media library's images a draft shows, in any of its languages. */
function mediaIdsOf(fields: Pick<CampaignDraftFields, 'content' | 'translations'>): string[] {
  return mediaIdsIn(fields.content, ...fields.translations.map(({ content }) => content));
}

export async function createCampaignDraft(
  fields: CampaignDraftFields,
  createdBy: string,
): Promise<CampaignDto> {
  const { tracking, ...rest } = fields;
  const campaign = await CampaignModel.create({
    ...rest,
    mediaIds: mediaIdsOf(fields),
    tracking: tracking ?? (await agencyTrackingSwitches()),
    createdBy,
  });
  return toCampaignDto(campaign.toObject());
}

/**
 * The update of a draft's fields. The switches are set one by one: the rest
 * of `tracking` (mode, key, link table) is the send's, never the editor's.
 */
function draftUpdate(fields: CampaignDraftFields) {
  const { tracking, ...rest } = fields;
  const mediaIds = mediaIdsOf(fields);
  if (!tracking) return { $set: { ...rest, mediaIds } };
  return {
    $set: {
      ...rest,
      mediaIds,
      'tracking.opens': tracking.opens,
      'tracking.clicks': tracking.clicks,
    },
  };
}

/** Only a draft is edited: what was scheduled, queued or sent stays as it goes out. */
export async function updateCampaignDraft(
  id: string,
  fields: CampaignDraftFields,
): Promise<CampaignDto> {
  const campaign = await CampaignModel.findOneAndUpdate(
    { _id: id, status: 'draft' },
    draftUpdate(fields),
    { returnDocument: 'after', runValidators: true },
  ).lean();
  if (!campaign) return notFoundOrConflict(id, 'Only a draft campaign can be edited');
  return toCampaignDto(campaign);
}

/** How many copy names are tried per look-up for a free one. */
const COPY_NAMES_PER_LOOKUP = 20;

/** The first of "Copy of X", "Copy of X (2)"… that no campaign has yet. */
async function freeCopyName(sourceName: string, locale: Locale): Promise<string> {
  for (let first = 1; ; first += COPY_NAMES_PER_LOOKUP) {
    const names = campaignCopyNames(sourceName, locale, COPY_NAMES_PER_LOOKUP, first);
    const taken = await takenCampaignNames(names);
    const free = names.find((name) => !taken.has(name));
    if (free) return free;
  }
}

/** The segments among `segmentIds` that still exist: a copy never names a deleted one. */
async function segmentsStillThere(
  segmentIds: readonly Types.ObjectId[],
): Promise<Types.ObjectId[]> {
  if (segmentIds.length === 0) return [];
  const existing = new Set(await findExistingSegmentIds(segmentIds));
  return segmentIds.filter((id) => existing.has(String(id)));
}

/** The lists among `listIds` that still exist: a copy never names a deleted list. */
async function listsStillThere(listIds: readonly Types.ObjectId[]): Promise<Types.ObjectId[]> {
  if (listIds.length === 0) return [];
  const existing = new Set(await findExistingListIds(listIds));
  return listIds.filter((id) => existing.has(String(id)));
}

export interface CampaignCopy {
  campaign: CampaignDto;
  original: { id: string; name: string };
}

/**
 * A new draft with what the author wrote and chose (languages, template,
 * audience, window, rate) and none of how the original went out: no
 * schedule, counters, rounds or ledger, whatever its status. What has
 * changed since (a list deleted, a lower cap) is applied, so the copy
 * saves as it is.
 */
export async function duplicateCampaign(
  id: string,
  copy: { createdBy: string; locale: Locale; maxRatePerMinute: number | null },
): Promise<CampaignCopy> {
  const source = await CampaignModel.findById(id).lean();
  if (!source) throw noCampaign();
  const cap = copy.maxRatePerMinute;
  const rate = source.ratePerMinute ?? null;
  const translations = (source.translations ?? []).map(({ locale, subject, content }) => ({
    locale,
    subject,
    content,
  }));
  const campaign = await CampaignModel.create({
    name: await freeCopyName(source.name, copy.locale),
    subject: source.subject,
    content: source.content,
    mediaIds: mediaIdsOf({ content: source.content, translations }),
    recipientType: source.recipientType,
    listIds: await listsStillThere(source.listIds ?? []),
    segmentIds: await segmentsStillThere(source.segmentIds ?? []),
    // A lawful basis is chosen, and audited, for one campaign only: a copy
    // mails only those who consented until an admin chooses again.
    enquiryLawfulBasis: null,
    defaultLocale: source.defaultLocale,
    translations,
    placeholderFallbacks: fallbacksOf(source.placeholderFallbacks),
    templateId: source.templateId ?? null,
    sendingWindow: source.sendingWindow ?? null,
    ratePerMinute: cap !== null && rate !== null ? Math.min(rate, cap) : rate,
    fromAddress: source.fromAddress ?? null,
    replyTo: source.replyTo ?? null,
    // The switches only: a copy makes its own key and link table when it is sent.
    tracking: {
      opens: source.tracking?.opens ?? true,
      clicks: source.tracking?.clicks ?? true,
    },
    createdBy: copy.createdBy,
  });
  return {
    campaign: toCampaignDto(campaign.toObject()),
    original: { id: String(source._id), name: source.name },
  };
}

/**
 * Deletes a campaign that is not being sent, and then its ledger: every
 * recipient's address and outcome goes with it. The ledger goes second, so a
 * resend that starts meanwhile (and wins) still finds the failed recipients.
 */
export async function deleteCampaignAndLedger(id: string): Promise<CampaignDto> {
  const campaign = await CampaignModel.findById(id).lean();
  if (!campaign) throw noCampaign();
  if (UNFINISHED_STATUSES.includes(campaign.status as CampaignStatus)) {
    throw new DomainError('CONFLICT', 'A campaign being sent cannot be deleted');
  }
  // Conditional, so a send that starts meanwhile is not deleted under the worker.
  const { deletedCount } = await CampaignModel.deleteOne({ _id: id, status: campaign.status });
  if (deletedCount === 0) throw new DomainError('CONFLICT', 'The campaign changed; try again');
  await deleteLedger(campaign._id);
  await deleteCampaignResults(campaign._id);
  return toCampaignDto(campaign);
}
