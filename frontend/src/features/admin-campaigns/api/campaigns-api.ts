import {
  API_ROUTES,
  CAMPAIGN_CONTROL_ROUTES,
  apiPath,
  type CampaignControl,
  UNFINISHED_STATUSES,
} from '@agency/contracts';
import type { ThunkDispatch, UnknownAction } from '@reduxjs/toolkit';
import type {
  AudienceTarget,
  CampaignAudienceDto,
  CampaignDto,
  CampaignInput,
  CampaignLanguageAudienceDto,
  CampaignPreviewDto,
  CampaignPreviewInput,
  CampaignSampleRecipientDto,
  CampaignScheduleInput,
  CampaignSettingsDto,
  CampaignTemplateDto,
  CampaignTemplateInput,
  CampaignListQuery,
  CampaignProgressDto,
  CampaignRecipientDto,
  CampaignRecipientQuery,
  CampaignSendResponse,
  CampaignTestSendInput,
  MailingListDto,
  Page,
  SegmentDto,
} from '@agency/contracts';
import { api } from '../../../lib/api';

/** The lists an audience query names, as the server reads them (`?listIds=a,b`); none: nothing. */
const listIdsParams = (listIds: readonly string[] | undefined) =>
  listIds && listIds.length > 0 ? { listIds: listIds.join(',') } : undefined;

/** The campaigns themselves: their list, progress, ledger, audience, records and settings. */
export const campaignsApi = api.injectEndpoints({
  endpoints: (build) => ({
    campaignList: build.query<Page<CampaignDto>, Partial<CampaignListQuery>>({
      query: (params) => ({ url: API_ROUTES.campaigns, params }),
      providesTags: ['Campaigns'],
    }),
    /** Where a send stands (counts, percent, the server's rate): polled while it runs. */
    campaignProgress: build.query<CampaignProgressDto, string>({
      query: (id) => apiPath(API_ROUTES.campaignProgress, { id }),
      providesTags: ['Campaigns'],
    }),
    /** One page of a campaign's ledger, in one state. */
    campaignRecipients: build.query<
      Page<CampaignRecipientDto>,
      { id: string } & Pick<CampaignRecipientQuery, 'state' | 'page' | 'pageSize' | 'sort'>
    >({
      query: ({ id, ...params }) => ({
        url: apiPath(API_ROUTES.campaignRecipients, { id }),
        params,
      }),
      providesTags: ['Campaigns'],
    }),
    /** Each audience's count; `lists` counts the lists given (none: 0). */
    campaignAudience: build.query<CampaignAudienceDto, readonly string[] | undefined>({
      query: (listIds) => ({
        url: API_ROUTES.campaignAudience,
        params: listIdsParams(listIds),
      }),
      // Asked again each time a confirmation opens: the audience changes as people subscribe.
      keepUnusedDataFor: 0,
    }),
    /** The `segments` count of the segments given (none: 0), the other counts as above. */
    campaignSegmentsAudience: build.query<CampaignAudienceDto, readonly string[]>({
      query: (segmentIds) => ({
        url: API_ROUTES.campaignAudience,
        params: segmentIds.length > 0 ? { segmentIds: segmentIds.join(',') } : undefined,
      }),
      keepUnusedDataFor: 0,
    }),
    /** The saved segments a campaign can target, by name. */
    campaignSegments: build.query<Page<SegmentDto>, undefined>({
      query: () => ({
        url: API_ROUTES.segments,
        params: { page: 1, pageSize: 100, sort: 'name' },
      }),
      providesTags: ['Segments'],
    }),
    /** The mailing lists a campaign can target, by name: a list being deleted is not one. */
    campaignLists: build.query<Page<MailingListDto>, undefined>({
      query: () => ({
        url: API_ROUTES.lists,
        params: { page: 1, pageSize: 100, sort: 'name', state: 'active' },
      }),
      providesTags: ['Lists'],
    }),
    createCampaign: build.mutation<CampaignDto, CampaignInput>({
      query: (body) => ({ url: API_ROUTES.campaigns, method: 'POST', body }),
      invalidatesTags: ['Campaigns', 'Stats', 'ActivityLogs'],
    }),
    updateCampaign: build.mutation<CampaignDto, { id: string; body: CampaignInput }>({
      query: ({ id, body }) => ({
        url: apiPath(API_ROUTES.campaign, { id }),
        method: 'PUT',
        body,
      }),
      invalidatesTags: ['Campaigns', 'ActivityLogs'],
    }),
    /** On or off the public archive, at any status (it shows there once sent). */
    setCampaignPublication: build.mutation<CampaignDto, { id: string; publishToArchive: boolean }>({
      query: ({ id, publishToArchive }) => ({
        url: apiPath(API_ROUTES.campaignArchive, { id }),
        method: 'PUT',
        body: { publishToArchive },
      }),
      invalidatesTags: ['Campaigns', 'ActivityLogs'],
    }),
    /** A new draft copied from any campaign; the server names it in the UI's language. */
    duplicateCampaign: build.mutation<CampaignDto, string>({
      query: (id) => ({ url: apiPath(API_ROUTES.campaignDuplicate, { id }), method: 'POST' }),
      invalidatesTags: ['Campaigns', 'Stats', 'ActivityLogs'],
    }),
    deleteCampaign: build.mutation<null, string>({
      query: (id) => ({ url: apiPath(API_ROUTES.campaign, { id }), method: 'DELETE' }),
      invalidatesTags: ['Campaigns', 'Stats', 'ActivityLogs'],
    }),
    /** The agency's clock, the sender's name and the global rate cap, as the editor shows them. */
    campaignSettings: build.query<CampaignSettingsDto, undefined>({
      query: () => API_ROUTES.campaignSettings,
      // Mostly the agency's settings: an admin's save shows here at once.
      providesTags: ['AgencySettings'],
    }),
  }),
});

/** The mail itself: whom it is previewed for, how it renders, its languages, a test. */
export const campaignContentApi = campaignsApi.injectEndpoints({
  endpoints: (build) => ({
    /** A few of an audience (for `lists`, of the lists given), whom the preview is filled in for. */
    sampleRecipients: build.query<{ items: CampaignSampleRecipientDto[] }, AudienceTarget>({
      query: ({ recipientType, listIds, segmentIds = [] }) => ({
        url: API_ROUTES.campaignSampleRecipients,
        params: {
          recipientType,
          ...listIdsParams(listIds),
          ...(segmentIds.length > 0 ? { segmentIds: segmentIds.join(',') } : {}),
        },
      }),
    }),
    /** The mail as the worker renders it; a POST only because a draft may be long. */
    previewCampaign: build.mutation<CampaignPreviewDto, Partial<CampaignPreviewInput>>({
      query: (body) => ({ url: API_ROUTES.campaignPreview, method: 'POST', body }),
    }),
    /** How many of a campaign's audience get each language, asked when a send is confirmed. */
    campaignLanguages: build.query<CampaignLanguageAudienceDto, string>({
      query: (id) => apiPath(API_ROUTES.campaignLanguages, { id }),
      keepUnusedDataFor: 0,
    }),
    /** A test to one address, outside the ledger: nothing the lists show changes. */
    sendCampaignTest: build.mutation<
      { queued: true; email: string },
      { id: string; body: CampaignTestSendInput }
    >({
      query: ({ id, body }) => ({
        url: apiPath(API_ROUTES.campaignTest, { id }),
        method: 'POST',
        body,
      }),
      invalidatesTags: ['ActivityLogs'],
    }),
  }),
});

/** The layouts campaigns are sent in. */
export const campaignTemplatesApi = campaignsApi.injectEndpoints({
  endpoints: (build) => ({
    templateList: build.query<Page<CampaignTemplateDto>, undefined>({
      query: () => ({ url: API_ROUTES.campaignTemplates, params: { pageSize: 100 } }),
      providesTags: ['CampaignTemplates'],
    }),
    createTemplate: build.mutation<CampaignTemplateDto, CampaignTemplateInput>({
      query: (body) => ({ url: API_ROUTES.campaignTemplates, method: 'POST', body }),
      invalidatesTags: ['CampaignTemplates', 'ActivityLogs'],
    }),
    updateTemplate: build.mutation<
      CampaignTemplateDto,
      { id: string; body: CampaignTemplateInput }
    >({
      query: ({ id, body }) => ({
        url: apiPath(API_ROUTES.campaignTemplate, { id }),
        method: 'PUT',
        body,
      }),
      invalidatesTags: ['CampaignTemplates', 'ActivityLogs'],
    }),
    duplicateTemplate: build.mutation<CampaignTemplateDto, string>({
      query: (id) => ({
        url: apiPath(API_ROUTES.campaignTemplateDuplicate, { id }),
        method: 'POST',
      }),
      invalidatesTags: ['CampaignTemplates', 'ActivityLogs'],
    }),
    deleteTemplate: build.mutation<null, string>({
      query: (id) => ({ url: apiPath(API_ROUTES.campaignTemplate, { id }), method: 'DELETE' }),
      invalidatesTags: ['CampaignTemplates', 'ActivityLogs'],
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
      query: (id) => ({ url: apiPath(API_ROUTES.campaignSend, { id }), method: 'POST' }),
      invalidatesTags: ['ActivityLogs'],
      onQueryStarted: (_id, lifecycle) => showNewStatus(lifecycle),
    }),
    scheduleCampaign: build.mutation<
      CampaignSendResponse,
      { id: string; body: CampaignScheduleInput }
    >({
      query: ({ id, body }) => ({
        url: apiPath(API_ROUTES.campaignSchedule, { id }),
        method: 'POST',
        body,
      }),
      invalidatesTags: ['ActivityLogs'],
      onQueryStarted: (_arg, lifecycle) => showNewStatus(lifecycle),
    }),
    unscheduleCampaign: build.mutation<CampaignSendResponse, string>({
      query: (id) => ({ url: apiPath(API_ROUTES.campaignUnschedule, { id }), method: 'POST' }),
      invalidatesTags: ['ActivityLogs'],
      onQueryStarted: (_arg, lifecycle) => showNewStatus(lifecycle),
    }),
    controlCampaign: build.mutation<CampaignSendResponse, { id: string; control: CampaignControl }>(
      {
        query: ({ id, control }) => ({
          url: apiPath(CAMPAIGN_CONTROL_ROUTES[control], { id }),
          method: 'POST',
        }),
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
  useCampaignSegmentsAudienceQuery,
  useCampaignSegmentsQuery,
  useCampaignListsQuery,
  useCreateCampaignMutation,
  useUpdateCampaignMutation,
  useDeleteCampaignMutation,
  useDuplicateCampaignMutation,
  useSetCampaignPublicationMutation,
  useCampaignRecipientsQuery,
  useCampaignSettingsQuery,
} = campaignsApi;
export const {
  useSendCampaignTestMutation,
  useSampleRecipientsQuery,
  usePreviewCampaignMutation,
  useCampaignLanguagesQuery,
} = campaignContentApi;
export const {
  useTemplateListQuery,
  useCreateTemplateMutation,
  useUpdateTemplateMutation,
  useDuplicateTemplateMutation,
  useDeleteTemplateMutation,
} = campaignTemplatesApi;
export const {
  useSendCampaignMutation,
  useControlCampaignMutation,
  useScheduleCampaignMutation,
  useUnscheduleCampaignMutation,
} = campaignSendingApi;

/** The store as this feature's endpoints see it. */
type CampaignsState = Parameters<typeof campaignsApi.util.selectCachedArgsForQuery>[0];

interface StatusChangeLifecycle<Answer = CampaignSendResponse> {
  dispatch: ThunkDispatch<CampaignsState, unknown, UnknownAction>;
  getState: () => unknown;
  queryFulfilled: Promise<{ data: Answer }>;
}

// Added once the endpoints exist: the lists it writes into are typed by them.
campaignsApi.enhanceEndpoints({
  endpoints: {
    campaignProgress: { onQueryStarted: (_id, lifecycle) => followLiveStatus(lifecycle) },
  },
});

/**
 * A send goes from queued to sending (after a send or a resume) with nobody
 * touching the list: each progress reading carries its status into the
 * lists already read, so the row's status and controls follow the worker.
 * A status that ends the send is left to the list's own read (the progress
 * hook watches a row only while it is in progress, and says when it ends),
 * and so is a row no longer in progress (a late reading of an ended send).
 */
async function followLiveStatus({
  dispatch,
  getState,
  queryFulfilled,
}: StatusChangeLifecycle<CampaignProgressDto>): Promise<void> {
  let reading: CampaignProgressDto;
  try {
    ({ data: reading } = await queryFulfilled);
  } catch {
    return; // The progress hook shows what it has; the next poll tries again.
  }
  if (!UNFINISHED_STATUSES.includes(reading.status)) return;
  const state = getState() as CampaignsState;
  for (const args of campaignsApi.util.selectCachedArgsForQuery(state, 'campaignList')) {
    dispatch(
      campaignsApi.util.updateQueryData('campaignList', args, (page) => {
        const row = page.items.find((item) => item.id === reading.id);
        if (row && UNFINISHED_STATUSES.includes(row.status)) row.status = reading.status;
      }),
    );
  }
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
