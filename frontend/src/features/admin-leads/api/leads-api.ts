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
      query: (params) => ({ url: 'admin/leads', params }),
      providesTags: ['Leads'],
    }),
    lead: build.query<LeadDto, string>({
      query: (id) => `admin/leads/${encodeURIComponent(id)}`,
      providesTags: ['Leads'],
    }),
    createLead: build.mutation<LeadDto, LeadInput>({
      query: (body) => ({ url: 'admin/leads', method: 'POST', body }),
      invalidatesTags: ['Leads', 'ActivityLogs'],
    }),
    updateLead: build.mutation<LeadDto, { id: string; body: LeadInput }>({
      query: ({ id, body }) => ({
        url: `admin/leads/${encodeURIComponent(id)}`,
        method: 'PUT',
        body,
      }),
      invalidatesTags: ['Leads', 'ActivityLogs'],
    }),
    deleteLead: build.mutation<null, string>({
      query: (id) => ({ url: `admin/leads/${encodeURIComponent(id)}`, method: 'DELETE' }),
      invalidatesTags: ['Leads', 'ActivityLogs'],
    }),
    /** The enquiry a converted lead came from. */
    leadEnquiry: build.query<ContactDetailDto, string>({
      query: (contactId) => `admin/contacts/${encodeURIComponent(contactId)}`,
      providesTags: (_result, _error, id) => [{ type: 'Contacts', id }],
    }),
    /** Who a lead can be assigned to (listing users needs the admin role). */
    assignableUsers: build.query<Page<UserDto>, undefined>({
      query: () => ({ url: 'admin/users', params: { pageSize: 100, sort: 'username' } }),
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
