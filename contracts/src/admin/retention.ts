import { number, object } from 'yup';
import { message } from '../validation/fields';

/** Days a newsletter sign-up may wait for its confirmation click before it is deleted. */
export const UNCONFIRMED_SIGNUP_DAYS = 7;

/** The enquiries' anonymisation: off (null) by default; when on, after this many months. */
export const ENQUIRY_RETENTION_MONTHS_MIN = 6;
export const ENQUIRY_RETENTION_MONTHS_MAX = 120;
/** Months the activity log keeps an entry. */
export const ACTIVITY_RETENTION_MONTHS_MIN = 1;
export const ACTIVITY_RETENTION_MONTHS_MAX = 120;
export const ACTIVITY_RETENTION_MONTHS_DEFAULT = 24;

const months = (min: number, max: number) =>
  number()
    .typeError(message('mustBeNumber'))
    .integer(message('mustBeWholeNumber'))
    .min(min, message('minValue', { min }))
    .max(max, message('maxValue', { max }));

/**
 * The retention rules an admin sets (part of PUT /api/admin/agency-settings).
 * Both fields have defaults, so a settings document saved before them stays valid.
 */
export const retentionSettingsSchema = object({
  enquiryMonths: months(ENQUIRY_RETENTION_MONTHS_MIN, ENQUIRY_RETENTION_MONTHS_MAX)
    .nullable()
    .default(null),
  activityMonths: months(ACTIVITY_RETENTION_MONTHS_MIN, ACTIVITY_RETENTION_MONTHS_MAX).default(
    ACTIVITY_RETENTION_MONTHS_DEFAULT,
  ),
})
  .typeError(message('required'))
  .default(undefined);

export interface RetentionSettings {
  /** Enquiries older than this are anonymised; null: never. */
  enquiryMonths: number | null;
  activityMonths: number;
}

export const DEFAULT_RETENTION_SETTINGS: Readonly<RetentionSettings> = {
  enquiryMonths: null,
  activityMonths: ACTIVITY_RETENTION_MONTHS_DEFAULT,
};

/** What the last retention pass removed, as the settings screen shows it. */
export interface RetentionReportDto {
  /** When the pass ended (ISO). */
  ranAt: string;
  unconfirmedSignups: number;
  anonymisedEnquiries: number;
  activityEntries: number;
}

/** The job scheduler, on `QUEUE_NAMES.retention`, of the retention rules. */
export const RETENTION_SCHEDULER_ID = 'retention';
/** The rules are counted in days and months: one pass a day is enough. */
export const RETENTION_EVERY_MS = 86_400_000;

/**
 * The instant `months` calendar months before `now` (UTC), the day kept
 * where the month has it: 31 March less one month is 28 (or 29) February.
 */
export function monthsBefore(now: Date, months: number): Date {
  const year = now.getUTCFullYear();
  const month = now.getUTCMonth() - months;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const cutoff = new Date(now);
  cutoff.setUTCFullYear(year, month, Math.min(now.getUTCDate(), lastDay));
  return cutoff;
}
