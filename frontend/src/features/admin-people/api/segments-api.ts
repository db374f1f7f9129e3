import {
  API_ROUTES,
  apiPath,
  type Page,
  type SegmentCountDto,
  type SegmentDto,
  type SegmentInput,
  type SegmentRule,
} from '@agency/contracts';
import { api } from '../../../lib/api';

/** Saved segments, and the count of a rule as it is built. */
export const segmentsApi = api.injectEndpoints({
  endpoints: (build) => ({
    segmentList: build.query<Page<SegmentDto>, undefined>({
      query: () => ({ url: API_ROUTES.segments, params: { page: 1, pageSize: 100, sort: 'name' } }),
      providesTags: ['Segments'],
    }),
    segmentCount: build.mutation<SegmentCountDto, SegmentRule>({
      query: (rule) => ({ url: API_ROUTES.segmentCount, method: 'POST', body: rule }),
    }),
    createSegment: build.mutation<SegmentDto, SegmentInput>({
      query: (body) => ({ url: API_ROUTES.segments, method: 'POST', body }),
      invalidatesTags: ['Segments', 'ActivityLogs'],
    }),
    updateSegment: build.mutation<SegmentDto, SegmentInput & { id: string }>({
      query: ({ id, ...body }) => ({
        url: apiPath(API_ROUTES.segment, { id }),
        method: 'PUT',
        body,
      }),
      invalidatesTags: ['Segments', 'ActivityLogs'],
    }),
    deleteSegment: build.mutation<null, string>({
      query: (id) => ({ url: apiPath(API_ROUTES.segment, { id }), method: 'DELETE' }),
      invalidatesTags: ['Segments', 'ActivityLogs'],
    }),
  }),
});

export const {
  useSegmentListQuery,
  useSegmentCountMutation,
  useCreateSegmentMutation,
  useUpdateSegmentMutation,
  useDeleteSegmentMutation,
} = segmentsApi;
