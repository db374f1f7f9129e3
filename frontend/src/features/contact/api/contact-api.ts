import { API_ROUTES } from '@agency/contracts';
import type { ContactInput, CreateContactResponse } from '@agency/contracts';
import { api } from '../../../lib/api';

/** What POST /api/contact receives: the schema's output, phone left out when empty. */
export type ContactRequest = ContactInput;

export const contactApi = api.injectEndpoints({
  endpoints: (build) => ({
    submitContact: build.mutation<CreateContactResponse, ContactRequest>({
      query: (body) => ({ url: API_ROUTES.contactForm, method: 'POST', body }),
      // A new enquiry makes any cached admin contacts list stale.
      invalidatesTags: ['Contacts'],
    }),
  }),
});

export const { useSubmitContactMutation } = contactApi;
