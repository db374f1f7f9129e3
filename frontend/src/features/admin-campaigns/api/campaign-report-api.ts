import { API_ROUTES, apiPath } from '@agency/contracts';
import type {
  CampaignDto,
  CampaignPersonResultDto,
  CampaignReportDto,
  Page,
  PersonResultFilter,
} from '@agency/contracts';
import { api } from '../../../lib/api';
import { saveDownload } from '../../../lib/save-download';

/** Which recipients of a campaign's individual results, and which page of them. */
export interface CampaignPeopleQuery {
  id: string;
  filter: PersonResultFilter;
  /** Part of an address; empty: everyone the filter keeps. */
  search: string;
  page: number;
  pageSize: number;
}

/** The filter and search the API reads, without an empty search. */
const peopleParams = ({ filter, search }: Pick<CampaignPeopleQuery, 'filter' | 'search'>) =>
  search.trim() === '' ? { filter } : { filter, search: search.trim() };

/** A CSV answer goes straight to a file: the store never holds the (possibly large) body. */
const downloadAs = (fallback: string) => async (response: Response) => {
  if (!response.ok) return response.json() as Promise<unknown>;
  await saveDownload(response, fallback);
  return null;
};

/** A campaign's results: the report, its CSV, and who opened and clicked (individual mode). */
export const campaignReportApi = api.injectEndpoints({
  endpoints: (build) => ({
    campaignReport: build.query<CampaignReportDto, string>({
      query: (id) => apiPath(API_ROUTES.campaignReport, { id }),
      providesTags: ['Campaigns'],
    }),
    /** The campaign itself: its content, for the click map's preview. */
    campaign: build.query<CampaignDto, string>({
      query: (id) => apiPath(API_ROUTES.campaign, { id }),
      providesTags: ['Campaigns'],
    }),
    campaignReportPeople: build.query<Page<CampaignPersonResultDto>, CampaignPeopleQuery>({
      query: ({ id, page, pageSize, ...rest }) => ({
        url: apiPath(API_ROUTES.campaignReportPeople, { id }),
        params: { ...peopleParams(rest), page, pageSize },
      }),
      providesTags: ['Campaigns'],
    }),
    exportCampaignReport: build.mutation<null, string>({
      query: (id) => ({
        url: apiPath(API_ROUTES.campaignReportExport, { id }),
        responseHandler: downloadAs('campaign-report'),
      }),
    }),
    exportCampaignPeople: build.mutation<
      null,
      Pick<CampaignPeopleQuery, 'id' | 'filter' | 'search'>
    >({
      query: ({ id, ...rest }) => ({
        url: apiPath(API_ROUTES.campaignReportPeopleExport, { id }),
        params: peopleParams(rest),
        responseHandler: downloadAs('campaign-people'),
      }),
    }),
  }),
});

export const {
  useCampaignQuery,
  useCampaignReportQuery,
  useCampaignReportPeopleQuery,
  useExportCampaignReportMutation,
  useExportCampaignPeopleMutation,
} = campaignReportApi;
