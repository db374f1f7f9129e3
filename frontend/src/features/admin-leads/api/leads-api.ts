import { API_ROUTES, apiPath } from '@agency/contracts';
import type {
  ContactDetailDto,
  LeadDto,
  LeadInput,
  LeadListQuery,
  Page,
  UserDto,
} from '@agency/contracts';
import { api } from '../../../lib/api';

export const leadsApi = api.injectEndpoints({
  endpoints: (build) => ({
    leadList: build.query<Page<LeadDto>, Partial<LeadListQuery>>({
      query: (params) => ({ url: API_ROUTES.leads, params }),
      providesTags: ['Leads'],
    }),
    lead: build.query<LeadDto, string>({
      query: (id) => apiPath(API_ROUTES.lead, { id }),
      providesTags: ['Leads'],
    }),
    createLead: build.mutation<LeadDto, LeadInput>({
      query: (body) => ({ url: API_ROUTES.leads, method: 'POST', body }),
      invalidatesTags: ['Leads', 'ActivityLogs'],
    }),
    updateLead: build.mutation<LeadDto, { id: string; body: LeadInput }>({
      query: ({ id, body }) => ({
        url: apiPath(API_ROUTES.lead, { id }),
        method: 'PUT',
        body,
      }),
      invalidatesTags: ['Leads', 'ActivityLogs'],
    }),
    deleteLead: build.mutation<null, string>({
      query: (id) => ({ url: apiPath(API_ROUTES.lead, { id }), method: 'DELETE' }),
      invalidatesTags: ['Leads', 'ActivityLogs'],
    }),
    /** The enquiry a converted lead came from. */
    leadEnquiry: build.query<ContactDetailDto, string>({
      query: (contactId) => apiPath(API_ROUTES.contact, { id: contactId }),
      providesTags: (_result, _error, id) => [{ type: 'Contacts', id }],
    }),
    /** Who a lead can be assigned to (listing users needs the admin role). */
    assignableUsers: build.query<Page<UserDto>, undefined>({
      query: () => ({ url: API_ROUTES.users, params: { pageSize: 100, sort: 'username' } }),
      providesTags: ['Users'],
    }),
  }),
});

export const {
  useLeadListQuery,
  useLeadQuery,
  useCreateLeadMutation,
  useUpdateLeadMutation,
  useDeleteLeadMutation,
  useLeadEnquiryQuery,
  useAssignableUsersQuery,
} = leadsApi;
