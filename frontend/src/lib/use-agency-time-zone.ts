import { API_ROUTES, type AgencySettingsDto } from '@agency/contracts';
import { api } from './api';

/**
 * The agency's time zone, from the agency settings an admin keeps. Every
 * screen reads its clock through this one hook; saving the settings
 * refetches it (the 'AgencySettings' tag), so every time on screen moves to
 * a new zone at once.
 */
const agencyClockApi = api.injectEndpoints({
  endpoints: (build) => ({
    agencyTimeZone: build.query<string, undefined>({
      query: () => API_ROUTES.agencySettings,
      transformResponse: (settings: AgencySettingsDto) => settings.timeZone,
      providesTags: ['AgencySettings'],
    }),
  }),
});

/** The zone every admin time is shown in; undefined until the API has answered. */
export function useAgencyTimeZone(): string | undefined {
  const { data } = agencyClockApi.useAgencyTimeZoneQuery(undefined);
  return data;
}
