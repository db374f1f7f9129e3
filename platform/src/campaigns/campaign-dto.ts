import {
  fallbacksOf,
  normalizedWindow,
  type CampaignDto,
  type CampaignStatus,
  type Locale,
  type CampaignTrackingDto,
  type TrackingMode,
} from '@agency/contracts';
import { isoOrNull } from '../list-pages';
import type { Campaign } from './campaign.model';

/** A campaign as the store holds it. */
export type StoredCampaign = Campaign & { _id: unknown };

/** A campaign's switches and mode as staff see them (a campaign saved before tracking: both on). */
export function toCampaignTrackingDto({
  tracking,
}: Pick<StoredCampaign, 'tracking'>): CampaignTrackingDto {
  return {
    opens: tracking?.opens ?? true,
    clicks: tracking?.clicks ?? true,
    mode: (tracking?.mode ?? null) as TrackingMode | null,
    keyDestroyed: Boolean(tracking?.keyDestroyedAt),
  };
}

export function toCampaignDto(campaign: StoredCampaign): CampaignDto {
  return {
    id: String(campaign._id),
    name: campaign.name,
    subject: campaign.subject,
    content: campaign.content,
    recipientType: campaign.recipientType as CampaignDto['recipientType'],
    listIds: (campaign.listIds ?? []).map(String),
    segmentIds: (campaign.segmentIds ?? []).map(String),
    enquiryLawfulBasis: (campaign.enquiryLawfulBasis ?? null) as CampaignDto['enquiryLawfulBasis'],
    defaultLocale: (campaign.defaultLocale ?? 'en') as Locale,
    translations: (campaign.translations ?? []).map(({ locale, subject, content }) => ({
      locale: locale as Locale,
      subject,
      content,
    })),
    placeholderFallbacks: fallbacksOf(campaign.placeholderFallbacks),
    templateId: campaign.templateId ? String(campaign.templateId) : null,
    scheduledAt: isoOrNull(campaign.scheduledAt),
    sendingWindow: campaign.sendingWindow
      ? normalizedWindow({
          days: campaign.sendingWindow.days,
          start: campaign.sendingWindow.start,
          end: campaign.sendingWindow.end,
        })
      : null,
    ratePerMinute: campaign.ratePerMinute ?? null,
    fromAddress: campaign.fromAddress ?? null,
    replyTo: campaign.replyTo ?? null,
    tracking: toCampaignTrackingDto(campaign),
    publishToArchive: campaign.publishToArchive ?? false,
    rates: null,
    status: campaign.status as CampaignStatus,
    total: campaign.total,
    sentCount: campaign.sentCount,
    failedCount: campaign.failedCount,
    queuedAt: isoOrNull(campaign.queuedAt),
    startedAt: isoOrNull(campaign.startedAt),
    finishedAt: isoOrNull(campaign.finishedAt),
    createdAt: campaign.createdAt.toISOString(),
    updatedAt: campaign.updatedAt.toISOString(),
  };
}
