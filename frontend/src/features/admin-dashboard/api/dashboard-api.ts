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
      query: () => 'admin/stats',
      providesTags: ['Stats'],
    }),
    latestContacts: build.query<KeysetPage<ContactDto>, number>({
      query: (count) => ({
        url: 'admin/contacts',
        params: { pageSize: count, sort: '-createdAt' },
      }),
      providesTags: ['Contacts'],
    }),
    enquiryTrend: build.query<EnquiryTrendDto, number>({
      query: (days) => ({ url: 'admin/stats/enquiries', params: { days } }),
      providesTags: ['Stats', 'Contacts'],
    }),
    latestCampaigns: build.query<Page<CampaignDto>, undefined>({
      query: () => ({ url: 'admin/campaigns', params: { pageSize: 50, sort: '-createdAt' } }),
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
