import { API_ROUTES, type CampaignSettingsDto } from '@agency/contracts';
import { api } from './api';

/**
 * The agency's time zone, as the API serves it with the sending settings.
 * Every screen reads its clock through this one hook, so the source of the
 * zone is named in one place.
 */
const agencyClockApi = api.injectEndpoints({
  endpoints: (build) => ({
    agencyTimeZone: build.query<string, undefined>({
      query: () => API_ROUTES.campaignSettings,
      transformResponse: (settings: CampaignSettingsDto) => settings.timeZone,
    }),
  }),
});

/** The zone every admin time is shown in; undefined until the API has answered. */
export function useAgencyTimeZone(): string | undefined {
  const { data } = agencyClockApi.useAgencyTimeZoneQuery(undefined);
  return data;
}
