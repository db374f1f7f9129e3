import { API_ROUTES } from '@agency/contracts';
import type { AgencySettingsDto, AgencySettingsInput } from '@agency/contracts';
import { api } from '../../../lib/api';

/** The agency's settings: every screen may read them, an admin saves them whole. */
export const agencySettingsApi = api.injectEndpoints({
  endpoints: (build) => ({
    agencySettings: build.query<AgencySettingsDto, undefined>({
      query: () => API_ROUTES.agencySettings,
      providesTags: ['AgencySettings'],
    }),
    saveAgencySettings: build.mutation<AgencySettingsDto, AgencySettingsInput>({
      query: (body) => ({ url: API_ROUTES.agencySettings, method: 'PUT', body }),
      // The editor's settings (clock, senders) come from them too.
      invalidatesTags: ['AgencySettings'],
    }),
  }),
});

export const { useAgencySettingsQuery, useSaveAgencySettingsMutation } = agencySettingsApi;
