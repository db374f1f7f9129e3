import { boolean, object, type InferType } from 'yup';
import { LOCALES, type Locale } from '../locales';
import { message, oneOfText, recordId } from '../validation/fields';

/** The public archive's address parameters: a language and, for one campaign, its id. */
export const archiveLocaleParamsSchema = object({
  locale: oneOfText(LOCALES).required(message('required')),
});
export const archiveCampaignParamsSchema = archiveLocaleParamsSchema.shape({
  id: recordId().required(message('required')),
});

/** The admin's switch on one campaign. */
export const campaignArchiveSchema = object({
  publishToArchive: boolean().typeError(message('required')).required(message('required')),
});
export type CampaignArchiveInput = InferType<typeof campaignArchiveSchema>;

/** How many campaigns the archive's index, its feed and its sitemap list, newest first. */
export const ARCHIVE_INDEX_MAX = 100;

/** One published campaign in the archive's index of a language. */
export interface ArchiveEntryDto {
  id: string;
  /** The subject in this language, placeholders filled with neutral words. */
  subject: string;
  /** The first words of the content as plain text, for the index and meta description. */
  summary: string;
  /** When its send ended (ISO). */
  sentAt: string;
  /** Every language the campaign is written in, this one included. */
  locales: Locale[];
}

/** One published campaign in one language: what its archive page shows. */
export interface ArchiveCampaignDto extends ArchiveEntryDto {
  /** The sanitised HTML of its content: no tracking, no personal data, no unsubscribe link. */
  html: string;
}

export interface ArchiveIndexDto {
  locale: Locale;
  items: ArchiveEntryDto[];
}
