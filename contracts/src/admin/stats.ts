import type { ServiceSlug } from '../services';

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
