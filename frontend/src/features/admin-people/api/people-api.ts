import {
  API_ROUTES,
  apiPath,
  type KeysetPage,
  type MailingListDto,
  type Page,
  type PeopleBulkInput,
  type PeopleBulkResultDto,
  type PeopleListQuery,
  type PersonDetailDto,
  type PersonDto,
} from '@agency/contracts';
import { api } from '../../../lib/api';
import { saveDownload } from '../../../lib/save-download';

export type PeopleListArgs = Partial<PeopleListQuery>;

/** A person as the admin list reads it: keyed by `id`, its normalised address. */
export type PersonRow = PersonDto & { id: string };

export const peopleApi = api.injectEndpoints({
  endpoints: (build) => ({
    peopleList: build.query<KeysetPage<PersonRow>, PeopleListArgs>({
      query: (params) => ({ url: API_ROUTES.people, params }),
      transformResponse: (page: KeysetPage<PersonDto>) => ({
        ...page,
        items: page.items.map((person) => ({ ...person, id: person.key })),
      }),
      providesTags: ['People'],
    }),
    personDetail: build.query<PersonDetailDto, string>({
      query: (email) => apiPath(API_ROUTES.person, { email }),
      providesTags: (_result, _error, email) => [{ type: 'People', id: email }],
    }),
    /**
     * The lists by name, for the filter, the bulk actions and the lists a row
     * names: the API pages them by 100 at most, more than an agency keeps.
     */
    peopleMailingLists: build.query<Page<MailingListDto>, undefined>({
      query: () => ({ url: API_ROUTES.lists, params: { page: 1, pageSize: 100, sort: 'name' } }),
      providesTags: ['Lists'],
    }),
    peopleBulk: build.mutation<PeopleBulkResultDto, PeopleBulkInput>({
      query: (body) => ({ url: API_ROUTES.peopleBulk, method: 'POST', body }),
      invalidatesTags: ['People', 'Lists', 'ActivityLogs'],
    }),
    // The CSV goes straight to a file: the store never holds the (possibly large) body.
    exportPeople: build.mutation<null, PeopleListArgs>({
      query: (params) => ({
        url: API_ROUTES.peopleExport,
        params,
        responseHandler: async (response) => {
          if (!response.ok) return response.json() as Promise<unknown>;
          await saveDownload(response, 'people');
          return null;
        },
      }),
    }),
  }),
});

export const {
  usePeopleListQuery,
  usePersonDetailQuery,
  usePeopleMailingListsQuery,
  usePeopleBulkMutation,
  useExportPeopleMutation,
} = peopleApi;
