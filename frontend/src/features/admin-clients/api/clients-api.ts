import { API_ROUTES, apiPath } from '@agency/contracts';
import type { ClientDto, ClientInput, ClientListQuery, Page } from '@agency/contracts';
import { api } from '../../../lib/api';

export const clientsApi = api.injectEndpoints({
  endpoints: (build) => ({
    clientList: build.query<Page<ClientDto>, Partial<ClientListQuery>>({
      query: (params) => ({ url: API_ROUTES.clients, params }),
      providesTags: ['Clients'],
    }),
    createClient: build.mutation<ClientDto, ClientInput>({
      query: (body) => ({ url: API_ROUTES.clients, method: 'POST', body }),
      invalidatesTags: ['Clients', 'ActivityLogs'],
    }),
    updateClient: build.mutation<ClientDto, { id: string; body: ClientInput }>({
      query: ({ id, body }) => ({
        url: apiPath(API_ROUTES.client, { id }),
        method: 'PUT',
        body,
      }),
      invalidatesTags: ['Clients', 'ActivityLogs'],
    }),
    deleteClient: build.mutation<null, string>({
      query: (id) => ({ url: apiPath(API_ROUTES.client, { id }), method: 'DELETE' }),
      invalidatesTags: ['Clients', 'ActivityLogs'],
    }),
  }),
});

export const {
  useClientListQuery,
  useCreateClientMutation,
  useUpdateClientMutation,
  useDeleteClientMutation,
} = clientsApi;
