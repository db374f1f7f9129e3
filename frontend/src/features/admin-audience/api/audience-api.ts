import {
  API_ROUTES,
  apiPath,
  type ImportDto,
  type ImportStartInput,
  type MailingListDto,
  type MailingListInput,
  type MailingListQuery,
  type Page,
  type SuppressionDto,
  type SuppressionInput,
  type SuppressionQuery,
} from '@agency/contracts';
import { api } from '../../../lib/api';
import { saveDownload } from '../../../lib/save-download';

/** A list row as the admin lists read it: keyed by `id`. */
export type SuppressionRow = SuppressionDto & { id: string };

const csvDownload = (fallback: string) => async (response: Response) => {
  if (!response.ok) return response.json() as Promise<unknown>;
  await saveDownload(response, fallback);
  return null;
};

/** The mailing lists themselves: their page, create, rename and delete. */
export const mailingListsApi = api.injectEndpoints({
  endpoints: (build) => ({
    mailingLists: build.query<Page<MailingListDto>, Partial<MailingListQuery>>({
      query: (params) => ({ url: API_ROUTES.lists, params }),
      providesTags: ['Lists'],
    }),
    createMailingList: build.mutation<MailingListDto, MailingListInput>({
      query: (body) => ({ url: API_ROUTES.lists, method: 'POST', body }),
      invalidatesTags: ['Lists', 'ActivityLogs'],
    }),
    updateMailingList: build.mutation<MailingListDto, { id: string; body: MailingListInput }>({
      query: ({ id, body }) => ({
        url: apiPath(API_ROUTES.list, { id }),
        method: 'PUT',
        body,
      }),
      invalidatesTags: ['Lists', 'ActivityLogs'],
    }),
    deleteMailingList: build.mutation<MailingListDto, string>({
      query: (id) => ({ url: apiPath(API_ROUTES.list, { id }), method: 'DELETE' }),
      invalidatesTags: ['Lists', 'ActivityLogs'],
    }),
  }),
});

/** A file's way into a list: the recent imports, one import's detail, upload, start, cancel, report. */
export const listImportsApi = mailingListsApi.injectEndpoints({
  endpoints: (build) => ({
    imports: build.query<Page<ImportDto>, { page: number; pageSize: number }>({
      query: (params) => ({ url: API_ROUTES.imports, params }),
      providesTags: [{ type: 'Imports', id: 'LIST' }],
    }),
    importDetail: build.query<ImportDto, string>({
      query: (id) => apiPath(API_ROUTES.import, { id }),
      providesTags: (_result, _error, id) => [{ type: 'Imports', id }],
    }),
    /** The file itself is the body: the API streams it, the store never holds it. */
    uploadImport: build.mutation<ImportDto, File>({
      query: (file) => ({
        url: API_ROUTES.imports,
        method: 'POST',
        body: file,
        headers: { 'Content-Type': 'text/csv', 'X-File-Name': encodeURIComponent(file.name) },
      }),
      invalidatesTags: ['Imports'],
    }),
    startImport: build.mutation<ImportDto, { id: string; body: ImportStartInput }>({
      query: ({ id, body }) => ({
        url: apiPath(API_ROUTES.importStart, { id }),
        method: 'POST',
        body,
      }),
      invalidatesTags: (_result, _error, { id }) => ['Imports', { type: 'Imports', id }],
    }),
    cancelImport: build.mutation<ImportDto, string>({
      query: (id) => ({ url: apiPath(API_ROUTES.importCancel, { id }), method: 'POST' }),
      invalidatesTags: (_result, _error, id) => ['Imports', { type: 'Imports', id }],
    }),
    downloadImportReport: build.mutation<null, string>({
      query: (id) => ({
        url: apiPath(API_ROUTES.importReport, { id }),
        responseHandler: csvDownload('import-report'),
      }),
    }),
  }),
});

/**
 * The addresses never mailed, added last so that `audienceApi` holds every audience
 * endpoint: the screens read `audienceApi.endpoints` and `audienceApi.util` as one.
 */
export const audienceApi = listImportsApi.injectEndpoints({
  endpoints: (build) => ({
    suppressions: build.query<Page<SuppressionRow>, Partial<SuppressionQuery>>({
      query: (params) => ({ url: API_ROUTES.suppressions, params }),
      transformResponse: (page: Page<SuppressionDto>) => ({
        ...page,
        items: page.items.map((entry) => ({ ...entry, id: entry.key })),
      }),
      providesTags: ['Suppressions'],
    }),
    addSuppression: build.mutation<SuppressionDto, SuppressionInput>({
      query: (body) => ({ url: API_ROUTES.suppressions, method: 'POST', body }),
      invalidatesTags: ['Suppressions', 'ActivityLogs'],
    }),
    removeSuppression: build.mutation<null, string>({
      query: (key) => ({ url: apiPath(API_ROUTES.suppression, { email: key }), method: 'DELETE' }),
      invalidatesTags: ['Suppressions', 'ActivityLogs'],
    }),
    exportSuppressions: build.mutation<null, Partial<SuppressionQuery>>({
      query: (params) => ({
        url: API_ROUTES.suppressionsExport,
        params,
        responseHandler: csvDownload('suppressions'),
      }),
    }),
  }),
});

export const {
  useMailingListsQuery,
  useCreateMailingListMutation,
  useUpdateMailingListMutation,
  useDeleteMailingListMutation,
  useImportsQuery,
  useImportDetailQuery,
  useUploadImportMutation,
  useStartImportMutation,
  useCancelImportMutation,
  useDownloadImportReportMutation,
  useSuppressionsQuery,
  useAddSuppressionMutation,
  useRemoveSuppressionMutation,
  useExportSuppressionsMutation,
} = audienceApi;
