import type { ThunkDispatch, UnknownAction } from '@reduxjs/toolkit';
import {
  CAMPAIGN_TEMPLATES_API_PATH,
  type CampaignAudienceDto,
  type CampaignDto,
  type CampaignInput,
  type CampaignLanguageAudienceDto,
  type CampaignPreviewDto,
  type CampaignPreviewInput,
  type CampaignSampleRecipientDto,
  type CampaignScheduleInput,
  type CampaignSettingsDto,
  type CampaignTemplateDto,
  type CampaignTemplateInput,
  type RecipientType,
  type CampaignListQuery,
  type CampaignProgressDto,
  type CampaignRecipientDto,
  type CampaignRecipientQuery,
  type CampaignSendResponse,
  type CampaignTestSendInput,
  type Page,
} from '@agency/contracts';
import { api } from '../../../lib/api';

/** The sending controls: each is `POST /api/admin/campaigns/{id}/{control}`. */
export const CAMPAIGN_CONTROLS = ['pause', 'resume', 'cancel', 'resend-failed'] as const;
export type CampaignControl = (typeof CAMPAIGN_CONTROLS)[number];

const campaignPath = (id: string) => `admin/campaigns/${encodeURIComponent(id)}`;
/** The API's template path without its leading `/api/`, which the base query adds. */
const TEMPLATES = CAMPAIGN_TEMPLATES_API_PATH.replace(/^\/api\//, '');
const templatePath = (id: string) => `${TEMPLATES}/${encodeURIComponent(id)}`;

export const campaignsApi = api.injectEndpoints({
  endpoints: (build) => ({
    campaignList: build.query<Page<CampaignDto>, Partial<CampaignListQuery>>({
      query: (params) => ({ url: 'admin/campaigns', params }),
      providesTags: ['Campaigns'],
    }),
    /** Where a send stands (counts, percent, the server's rate): polled while it runs. */
    campaignProgress: build.query<CampaignProgressDto, string>({
      query: (id) => `${campaignPath(id)}/progress`,
      providesTags: ['Campaigns'],
    }),
    /** One page of a campaign's ledger, in one state. */
    campaignRecipients: build.query<
      Page<CampaignRecipientDto>,
      { id: string } & Pick<CampaignRecipientQuery, 'state' | 'page' | 'pageSize' | 'sort'>
    >({
      query: ({ id, ...params }) => ({ url: `${campaignPath(id)}/recipients`, params }),
      providesTags: ['Campaigns'],
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
        url: campaignPath(id),
        method: 'PUT',
        body,
      }),
      invalidatesTags: ['Campaigns', 'ActivityLogs'],
    }),
    deleteCampaign: build.mutation<null, string>({
      query: (id) => ({ url: campaignPath(id), method: 'DELETE' }),
      invalidatesTags: ['Campaigns', 'Stats', 'ActivityLogs'],
    }),
    /** The agency's clock, the sender's name and the global rate cap, as the editor shows them. */
    campaignSettings: build.query<CampaignSettingsDto, undefined>({
      query: () => 'admin/campaigns/settings',
    }),
    /** A few of an audience, whom the preview is filled in for. */
    sampleRecipients: build.query<{ items: CampaignSampleRecipientDto[] }, RecipientType>({
      query: (recipientType) => ({
        url: 'admin/campaigns/sample-recipients',
        params: { recipientType },
      }),
    }),
    /** The mail as the worker renders it; a POST only because a draft may be long. */
    previewCampaign: build.mutation<CampaignPreviewDto, Partial<CampaignPreviewInput>>({
      query: (body) => ({ url: 'admin/campaigns/preview', method: 'POST', body }),
    }),
    /** How many of a campaign's audience get each language, asked when a send is confirmed. */
    campaignLanguages: build.query<CampaignLanguageAudienceDto, string>({
      query: (id) => `${campaignPath(id)}/audience`,
      keepUnusedDataFor: 0,
    }),
    templateList: build.query<Page<CampaignTemplateDto>, undefined>({
      query: () => ({ url: TEMPLATES, params: { pageSize: 100 } }),
      providesTags: ['CampaignTemplates'],
    }),
    createTemplate: build.mutation<CampaignTemplateDto, CampaignTemplateInput>({
      query: (body) => ({ url: TEMPLATES, method: 'POST', body }),
      invalidatesTags: ['CampaignTemplates', 'ActivityLogs'],
    }),
    updateTemplate: build.mutation<
      CampaignTemplateDto,
      { id: string; body: CampaignTemplateInput }
    >({
      query: ({ id, body }) => ({ url: templatePath(id), method: 'PUT', body }),
      invalidatesTags: ['CampaignTemplates', 'ActivityLogs'],
    }),
    duplicateTemplate: build.mutation<CampaignTemplateDto, string>({
      query: (id) => ({ url: `${templatePath(id)}/duplicate`, method: 'POST' }),
      invalidatesTags: ['CampaignTemplates', 'ActivityLogs'],
    }),
    deleteTemplate: build.mutation<null, string>({
      query: (id) => ({ url: templatePath(id), method: 'DELETE' }),
      invalidatesTags: ['CampaignTemplates', 'ActivityLogs'],
    }),
    /** A test to one address, outside the ledger: nothing the lists show changes. */
    sendCampaignTest: build.mutation<
      { queued: true; email: string },
      { id: string; body: CampaignTestSendInput }
    >({
      query: ({ id, body }) => ({ url: `${campaignPath(id)}/test`, method: 'POST', body }),
      invalidatesTags: ['ActivityLogs'],
    }),
  }),
});

/**
 * Send and the sending controls, apart from the reads above because they
 * write the status they answer with into those reads' cache.
 */
export const campaignSendingApi = campaignsApi.injectEndpoints({
  endpoints: (build) => ({
    sendCampaign: build.mutation<CampaignSendResponse, string>({
      query: (id) => ({ url: `${campaignPath(id)}/send`, method: 'POST' }),
      invalidatesTags: ['ActivityLogs'],
      onQueryStarted: (_id, lifecycle) => showNewStatus(lifecycle),
    }),
    scheduleCampaign: build.mutation<
      CampaignSendResponse,
      { id: string; body: CampaignScheduleInput }
    >({
      query: ({ id, body }) => ({ url: `${campaignPath(id)}/schedule`, method: 'POST', body }),
      invalidatesTags: ['ActivityLogs'],
      onQueryStarted: (_arg, lifecycle) => showNewStatus(lifecycle),
    }),
    unscheduleCampaign: build.mutation<CampaignSendResponse, string>({
      query: (id) => ({ url: `${campaignPath(id)}/unschedule`, method: 'POST' }),
      invalidatesTags: ['ActivityLogs'],
      onQueryStarted: (_arg, lifecycle) => showNewStatus(lifecycle),
    }),
    controlCampaign: build.mutation<CampaignSendResponse, { id: string; control: CampaignControl }>(
      {
        query: ({ id, control }) => ({ url: `${campaignPath(id)}/${control}`, method: 'POST' }),
        invalidatesTags: ['ActivityLogs'],
        onQueryStarted: (_arg, lifecycle) => showNewStatus(lifecycle),
      },
    ),
  }),
});

export const {
  useCampaignListQuery,
  useCampaignProgressQuery,
  useCampaignAudienceQuery,
  useCreateCampaignMutation,
  useUpdateCampaignMutation,
  useDeleteCampaignMutation,
  useCampaignRecipientsQuery,
  useSendCampaignTestMutation,
  useCampaignSettingsQuery,
  useSampleRecipientsQuery,
  usePreviewCampaignMutation,
  useCampaignLanguagesQuery,
  useTemplateListQuery,
  useCreateTemplateMutation,
  useUpdateTemplateMutation,
  useDuplicateTemplateMutation,
  useDeleteTemplateMutation,
} = campaignsApi;
export const {
  useSendCampaignMutation,
  useControlCampaignMutation,
  useScheduleCampaignMutation,
  useUnscheduleCampaignMutation,
} = campaignSendingApi;

/** The store as this feature's endpoints see it. */
type CampaignsState = Parameters<typeof campaignsApi.util.selectCachedArgsForQuery>[0];

interface StatusChangeLifecycle {
  dispatch: ThunkDispatch<CampaignsState, unknown, UnknownAction>;
  getState: () => unknown;
  queryFulfilled: Promise<{ data: CampaignSendResponse }>;
}

/**
 * Shows the status a send or control answered with in the lists already
 * read, instead of reading them again: a small campaign can be sent before
 * a new read of the list, which would then never show it in progress (nor
 * say when it ended). The progress poll takes it from there.
 */
async function showNewStatus({ dispatch, getState, queryFulfilled }: StatusChangeLifecycle) {
  let campaign: CampaignDto;
  try {
    ({ campaign } = (await queryFulfilled).data);
  } catch {
    return; // The caller says why it failed; nothing changed.
  }
  const state = getState() as CampaignsState;
  for (const args of campaignsApi.util.selectCachedArgsForQuery(state, 'campaignList')) {
    dispatch(
      campaignsApi.util.updateQueryData('campaignList', args, (page) => {
        const index = page.items.findIndex((item) => item.id === campaign.id);
        if (index >= 0) page.items[index] = campaign;
      }),
    );
  }
  dispatch(
    campaignsApi.util.updateQueryData('campaignProgress', campaign.id, (progress) => {
      progress.status = campaign.status;
    }),
  );
}
