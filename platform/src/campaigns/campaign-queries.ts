import { trusted } from 'mongoose';
import type {
  AudienceTarget,
  CampaignDto,
  CampaignListQuery,
  Locale,
  Page,
  RecipientType,
} from '@agency/contracts';
import { equalityFilter, findPage, pageOf, searchFilter } from '../list-pages';
import { CampaignModel } from './campaign.model';
import { toCampaignDto } from './campaign-dto';
import { readCampaignRates } from './results/campaign-report-queries';

export async function findCampaignsPage(query: CampaignListQuery): Promise<Page<CampaignDto>> {
  const filter = {
    ...equalityFilter(query, ['status']),
    ...searchFilter(query.search, ['name', 'subject']),
  };
  const { docs: campaigns, total } = await findPage(CampaignModel, filter, query);
  const rows = campaigns.map(toCampaignDto);
  // The page's rates in one read of their results, not one per row.
  const rates = await readCampaignRates(rows);
  return pageOf(
    rows.map((row) => ({ ...row, rates: rates.get(row.id) ?? null })),
    total,
    query,
  );
}

export async function findCampaign(id: string): Promise<CampaignDto | null> {
  const campaign = await CampaignModel.findById(id).lean();
  return campaign ? toCampaignDto(campaign) : null;
}

export async function countCampaigns(): Promise<number> {
  return CampaignModel.countDocuments({});
}

export async function campaignExists(id: string): Promise<boolean> {
  return Boolean(await CampaignModel.exists({ _id: id }));
}

/** The names of these campaigns by id, read once by `_id`; a deleted one is absent. */
export async function findCampaignNames(ids: readonly string[]): Promise<Map<string, string>> {
  const campaigns = await CampaignModel.find({ _id: trusted({ $in: ids }) }, { name: 1 }).lean();
  return new Map(campaigns.map(({ _id, name }) => [String(_id), name]));
}

/** The campaign's current round, or null when there is no campaign with this id. */
export async function findCampaignRound(id: string): Promise<number | null> {
  const campaign = await CampaignModel.findById(id, { round: 1 }).lean();
  return campaign ? campaign.round : null;
}

/** Whom a campaign goes to and in which languages it is written. */
export interface CampaignLanguageTarget {
  target: AudienceTarget;
  defaultLocale: Locale;
  /** The languages of its translations, beside the default one. */
  translatedLocales: string[];
}

export async function findCampaignLanguageTarget(
  id: string,
): Promise<CampaignLanguageTarget | null> {
  const campaign = await CampaignModel.findById(id, {
    recipientType: 1,
    listIds: 1,
    segmentIds: 1,
    enquiryLawfulBasis: 1,
    defaultLocale: 1,
    translations: 1,
  }).lean();
  if (!campaign) return null;
  return {
    target: {
      recipientType: campaign.recipientType as RecipientType,
      listIds: (campaign.listIds ?? []).map(String),
      segmentIds: (campaign.segmentIds ?? []).map(String),
      enquiryLawfulBasis: (campaign.enquiryLawfulBasis ??
        null) as AudienceTarget['enquiryLawfulBasis'],
    },
    defaultLocale: (campaign.defaultLocale ?? 'en') as Locale,
    translatedLocales: (campaign.translations ?? []).map((translation) => translation.locale),
  };
}

/** The names among `names` that a campaign has already. */
export async function takenCampaignNames(names: readonly string[]): Promise<Set<string>> {
  const found = await CampaignModel.find({ name: trusted({ $in: names }) }, { name: 1 }).lean();
  return new Set(found.map(({ name }) => name));
}
