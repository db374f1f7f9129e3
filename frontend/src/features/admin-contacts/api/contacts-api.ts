import { API_ROUTES, apiPath } from '@agency/contracts';
import type {
  ContactDetailDto,
  ContactDto,
  ContactListQuery,
  ContactStatus,
  KeysetPage,
  LeadDto,
} from '@agency/contracts';
import { api } from '../../../lib/api';
import { saveDownload } from '../contacts-download';

export type ContactListArgs = Partial<ContactListQuery>;

export const contactsApi = api.injectEndpoints({
  endpoints: (build) => ({
    contactList: build.query<KeysetPage<ContactDto>, ContactListArgs>({
      query: (params) => ({ url: API_ROUTES.contacts, params }),
      providesTags: ['Contacts'],
    }),
    contactDetail: build.query<ContactDetailDto, string>({
      query: (id) => apiPath(API_ROUTES.contact, { id }),
      providesTags: (_result, _error, id) => [{ type: 'Contacts', id }],
    }),
    setContactStatus: build.mutation<ContactDetailDto, { id: string; status: ContactStatus }>({
      query: ({ id, status }) => ({
        url: apiPath(API_ROUTES.contact, { id }),
        method: 'PATCH',
        body: { status },
      }),
      invalidatesTags: ['Contacts', 'Stats'],
    }),
    deleteContact: build.mutation<null, string>({
      query: (id) => ({ url: apiPath(API_ROUTES.contact, { id }), method: 'DELETE' }),
      invalidatesTags: ['Contacts', 'Stats'],
    }),
    convertContact: build.mutation<LeadDto, string>({
      query: (id) => ({ url: apiPath(API_ROUTES.contactConvert, { id }), method: 'POST' }),
      invalidatesTags: ['Leads'],
    }),
    // The CSV goes straight to a file: the store never holds the (possibly large) body.
    exportContacts: build.mutation<null, ContactListArgs>({
      query: (params) => ({
        url: API_ROUTES.contactsExport,
        params,
        responseHandler: async (response) => {
          if (!response.ok) return response.json() as Promise<unknown>;
          await saveDownload(response);
          return null;
        },
      }),
    }),
  }),
});

export const {
  useContactListQuery,
  useContactDetailQuery,
  useSetContactStatusMutation,
  useDeleteContactMutation,
  useConvertContactMutation,
  useExportContactsMutation,
} = contactsApi;
