import { API_ROUTES } from '@agency/contracts';
import type { TestRecipientsDto, TestRecipientsInput } from '@agency/contracts';
import { api } from '../../../lib/api';

/** The admin's allow-list of test-mail recipients: read, and replaced whole. */
export const testRecipientsApi = api.injectEndpoints({
  endpoints: (build) => ({
    testRecipients: build.query<TestRecipientsDto, undefined>({
      query: () => API_ROUTES.testRecipients,
    }),
    saveTestRecipients: build.mutation<TestRecipientsDto, TestRecipientsInput>({
      query: (body) => ({ url: API_ROUTES.testRecipients, method: 'PUT', body }),
      // The answer is the list as stored: it replaces the one shown, no second read.
      async onQueryStarted(_body, { dispatch, queryFulfilled }) {
        try {
          const { data } = await queryFulfilled;
          dispatch(testRecipientsApi.util.upsertQueryData('testRecipients', undefined, data));
        } catch {
          // A refused list changes nothing; the form shows why.
        }
      },
    }),
  }),
});

export const { useTestRecipientsQuery, useSaveTestRecipientsMutation } = testRecipientsApi;
