import { object, type InferType } from 'yup';
import type { ServiceSlug } from '../services';
import { queryInteger } from '../validation/fields';

/** The dashboard's four cards and the services-distribution list. */
export interface StatsDto {
  totalContacts: number;
  /** Since midnight in the agency's time zone. */
  todayContacts: number;
  /** Confirmed newsletter subscribers. */
  totalSubscribers: number;
  totalCampaigns: number;
  /** Since Monday 00:00 in the agency's time zone. */
  thisWeekContacts: number;
  contactsByService: { service: ServiceSlug; count: number }[];
  timeZone: string;
}

/** The analytics chart of enquiries per day: 30 days unless asked, at most 90. */
export const ENQUIRY_TREND_DAYS_DEFAULT = 30;
export const ENQUIRY_TREND_DAYS_MAX = 90;

export const enquiryTrendQuerySchema = object({
  days: queryInteger(1, ENQUIRY_TREND_DAYS_MAX).default(ENQUIRY_TREND_DAYS_DEFAULT),
});
export type EnquiryTrendQuery = InferType<typeof enquiryTrendQuerySchema>;

/** Enquiries per calendar day in the agency's time zone, oldest first, today last. */
export interface EnquiryTrendDto {
  timeZone: string;
  /** Every day of the period, days without enquiries included (count 0). */
  days: { date: string; count: number }[];
}

/**
 * The reconciliation of the kept figures: a job scheduler (upserted by every
 * worker, stored once in Redis) recounts them from the store once per
 * interval, and at once when the scheduler is created, and repairs any drift.
 */
export const STATS_RECONCILE_SCHEDULER_ID = 'stats-reconcile';
// The pass carries nothing: it reads the store and the kept figures.
export type StatsReconcileJob = Record<string, never>;
