import { API_ROUTES, apiPath, type ErasureDto } from '@agency/contracts';
import { api } from '../../../lib/api';
import { saveDownload } from '../../../lib/save-download';

/** The JSON file is handed to the browser; an error's body is read as the API's error. */
async function jsonDownload(response: Response): Promise<unknown> {
  if (!response.ok) return response.json() as Promise<unknown>;
  await saveDownload(response, 'person-data');
  return null;
}

/** A person's data download and erasure, for admins (permission `people:privacy`). */
export const personPrivacyApi = api.injectEndpoints({
  endpoints: (build) => ({
    downloadPersonData: build.mutation<null, string>({
      query: (email) => ({
        url: apiPath(API_ROUTES.personData, { email }),
        responseHandler: jsonDownload,
      }),
      invalidatesTags: ['ActivityLogs'],
    }),
    erasePerson: build.mutation<ErasureDto, { email: string; confirm: string }>({
      query: ({ email, confirm }) => ({
        url: apiPath(API_ROUTES.personErasure, { email }),
        method: 'POST',
        body: { confirm },
      }),
      invalidatesTags: ['ActivityLogs'],
    }),
    erasure: build.query<ErasureDto, string>({
      query: (id) => apiPath(API_ROUTES.erasure, { id }),
    }),
  }),
});

export const { useDownloadPersonDataMutation, useErasePersonMutation, useErasureQuery } =
  personPrivacyApi;
