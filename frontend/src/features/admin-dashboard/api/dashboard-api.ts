import { API_ROUTES } from '@agency/contracts';
import type {
  CampaignDto,
  ContactDto,
  EnquiryTrendDto,
  KeysetPage,
  Page,
  StatsDto,
} from '@agency/contracts';
import { api } from '../../../lib/api';

/** Finished (or finishing) sends: what the campaign results chart compares. */
export const RESULT_STATUSES = ['sending', 'sent', 'failed', 'paused', 'cancelled'] as const;

export const dashboardApi = api.injectEndpoints({
  endpoints: (build) => ({
    dashboardStats: build.query<StatsDto, undefined>({
      query: () => API_ROUTES.stats,
      providesTags: ['Stats'],
    }),
    latestContacts: build.query<KeysetPage<ContactDto>, number>({
      query: (count) => ({
        url: API_ROUTES.contacts,
        params: { pageSize: count, sort: '-createdAt' },
      }),
      providesTags: ['Contacts'],
    }),
    enquiryTrend: build.query<EnquiryTrendDto, number>({
      query: (days) => ({ url: API_ROUTES.statsEnquiries, params: { days } }),
      providesTags: ['Stats', 'Contacts'],
    }),
    latestCampaigns: build.query<Page<CampaignDto>, undefined>({
      query: () => ({ url: API_ROUTES.campaigns, params: { pageSize: 50, sort: '-createdAt' } }),
      providesTags: ['Campaigns'],
    }),
  }),
});

export const {
  useDashboardStatsQuery,
  useLatestContactsQuery,
  useEnquiryTrendQuery,
  useLatestCampaignsQuery,
} = dashboardApi;
