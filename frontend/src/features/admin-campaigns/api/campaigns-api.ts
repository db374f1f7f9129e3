import type {
  CampaignAudienceDto,
  CampaignDto,
  CampaignInput,
  CampaignListQuery,
  CampaignSendResponse,
  Page,
} from '@agency/contracts';
import { api } from '../../../lib/api';

export const campaignsApi = api.injectEndpoints({
  endpoints: (build) => ({
    campaignList: build.query<Page<CampaignDto>, Partial<CampaignListQuery>>({
      query: (params) => ({ url: 'admin/campaigns', params }),
      providesTags: ['Campaigns'],
    }),
    /** One campaign as it stands now: polled while it is being sent. */
    campaignProgress: build.query<CampaignDto, string>({
      query: (id) => `admin/campaigns/${encodeURIComponent(id)}`,
    }),
    campaignAudience: build.query<CampaignAudienceDto, undefined>({
      query: () => 'admin/campaigns/audience',
      // Asked again each time a confirmation opens: the audience changes as people subscribe.
      keepUnusedDataFor: 0,
    }),
    createCampaign: build.mutation<CampaignDto, CampaignInput>({
      query: (body) => ({ url: 'admin/campaigns', method: 'POST', body }),
      invalidatesTags: ['Campaigns', 'Stats', 'ActivityLogs'],
    }),
    updateCampaign: build.mutation<CampaignDto, { id: string; body: CampaignInput }>({
      query: ({ id, body }) => ({
        url: `admin/campaigns/${encodeURIComponent(id)}`,
        method: 'PUT',
        body,
      }),
      invalidatesTags: ['Campaigns', 'ActivityLogs'],
    }),
    deleteCampaign: build.mutation<null, string>({
      query: (id) => ({ url: `admin/campaigns/${encodeURIComponent(id)}`, method: 'DELETE' }),
      invalidatesTags: ['Campaigns', 'Stats', 'ActivityLogs'],
    }),
    sendCampaign: build.mutation<CampaignSendResponse, string>({
      query: (id) => ({ url: `admin/campaigns/${encodeURIComponent(id)}/send`, method: 'POST' }),
      invalidatesTags: ['Campaigns', 'ActivityLogs'],
    }),
  }),
});

export const {
  useCampaignListQuery,
  useCampaignProgressQuery,
  useCampaignAudienceQuery,
  useCreateCampaignMutation,
  useUpdateCampaignMutation,
  useDeleteCampaignMutation,
  useSendCampaignMutation,
} = campaignsApi;
