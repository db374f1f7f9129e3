import {
  ARCHIVE_INDEX_MAX,
  fallbacksOf,
  type ArchiveCampaignDto,
  type ArchiveEntryDto,
  type CampaignDto,
  type Locale,
} from '@agency/contracts';
import { CampaignModel } from '../campaign.model';
import { toCampaignDto, type StoredCampaign } from '../campaign-dto';
import { sanitizeArchiveHtml } from '../rendering/campaign-html';
import { summaryOf, withNeutralPlaceholders } from './archive-text';
import { noCampaign } from '../campaign-commands';

/** What the archive shows: published, and sent. Anything else is not there at all. */
const ARCHIVED = { publishToArchive: true, status: 'sent' } as const;

/** The campaign's subject and content in `locale`, or null when it is not written in it. */
function languageOf(campaign: StoredCampaign, locale: Locale) {
  if (campaign.defaultLocale === locale) {
    return { subject: campaign.subject, content: campaign.content };
  }
  return campaign.translations.find((translation) => translation.locale === locale) ?? null;
}

function localesOf(campaign: StoredCampaign): Locale[] {
  return [campaign.defaultLocale, ...campaign.translations.map(({ locale }) => locale)] as Locale[];
}

/** One campaign in one language, as a visitor reads it: neutral placeholders, no tracking. */
function archivedCampaignOf(campaign: StoredCampaign, locale: Locale): ArchiveCampaignDto | null {
  const language = languageOf(campaign, locale);
  if (!language) return null;
  const fallback = fallbacksOf(campaign.placeholderFallbacks)[locale];
  // The stored content, never the mail: the template's links and the tracking are the mail's.
  const html = sanitizeArchiveHtml(withNeutralPlaceholders(language.content, true, fallback));
  return {
    id: String(campaign._id),
    subject: withNeutralPlaceholders(language.subject, false, fallback).trim(),
    summary: summaryOf(html),
    sentAt: (campaign.finishedAt ?? campaign.updatedAt).toISOString(),
    locales: localesOf(campaign),
    html,
  };
}

/** An index entry: the campaign without its content. */
function entryOf({ id, subject, summary, sentAt, locales }: ArchiveCampaignDto): ArchiveEntryDto {
  return { id, subject, summary, sentAt, locales };
}

/**
 * The archive's index in one language, newest send first: the published sent
 * campaigns written in that language (one not written in it is left out).
 */
export async function findArchivedCampaigns(locale: Locale): Promise<ArchiveEntryDto[]> {
  const campaigns = await CampaignModel.find({
    ...ARCHIVED,
    $or: [{ defaultLocale: locale }, { 'translations.locale': locale }],
  })
    .sort({ finishedAt: -1, _id: -1 })
    .limit(ARCHIVE_INDEX_MAX)
    .lean();
  return campaigns.flatMap((campaign) => {
    const archived = archivedCampaignOf(campaign, locale);
    return archived ? [entryOf(archived)] : [];
  });
}

/** One published sent campaign in `locale`; null when there is none or it is not written in it. */
export async function findArchivedCampaign(
  id: string,
  locale: Locale,
): Promise<ArchiveCampaignDto | null> {
  const campaign = await CampaignModel.findOne({ _id: id, ...ARCHIVED }).lean();
  return campaign ? archivedCampaignOf(campaign, locale) : null;
}

/** Every published sent campaign's id and languages, for the sitemap. */
export async function findArchiveAddresses(): Promise<
  { id: string; locales: Locale[]; sentAt: string }[]
> {
  const campaigns = await CampaignModel.find(ARCHIVED)
    .sort({ finishedAt: -1, _id: -1 })
    .limit(ARCHIVE_INDEX_MAX)
    .lean();
  return campaigns.map((campaign) => ({
    id: String(campaign._id),
    locales: localesOf(campaign),
    sentAt: (campaign.finishedAt ?? campaign.updatedAt).toISOString(),
  }));
}

/** The staff's switch: at any status, since a sent campaign is the one the archive shows. */
export async function setCampaignPublication(
  id: string,
  publishToArchive: boolean,
): Promise<CampaignDto> {
  const updated = await CampaignModel.findByIdAndUpdate(
    id,
    { $set: { publishToArchive } },
    { returnDocument: 'after' },
  ).lean();
  if (!updated) throw noCampaign();
  return toCampaignDto(updated);
}
