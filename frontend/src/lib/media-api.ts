import {
  API_ROUTES,
  apiPath,
  type KeysetPage,
  type MediaDto,
  type MediaListQuery,
  type MediaUpdateInput,
} from '@agency/contracts';
import { api } from './api';

export type MediaListArgs = Partial<MediaListQuery>;

/**
 * The media library's calls. They live in lib/ rather than in a feature: the
 * media screen and the campaign and template editors (two features) both use them.
 */
export const mediaApi = api.injectEndpoints({
  endpoints: (build) => ({
    mediaList: build.query<KeysetPage<MediaDto>, MediaListArgs>({
      query: (params) => ({ url: API_ROUTES.media, params }),
      providesTags: ['Media'],
    }),
    /** One image as the API knows it now: where it is used, and by which campaigns in which state. */
    mediaItem: build.query<MediaDto, string>({
      query: (id) => apiPath(API_ROUTES.mediaItem, { id }),
      providesTags: ['Media'],
    }),
    /** Renames an image: only its name in the library changes, never its file or its address. */
    renameMedia: build.mutation<MediaDto, { id: string; body: MediaUpdateInput }>({
      query: ({ id, body }) => ({
        url: apiPath(API_ROUTES.mediaItem, { id }),
        method: 'PATCH',
        body,
      }),
      invalidatesTags: ['Media', 'ActivityLogs'],
    }),
    /** Answers the image deleted; `force` only once staff confirmed deleting one that mails still show. */
    deleteMedia: build.mutation<MediaDto, { id: string; force?: boolean }>({
      query: ({ id, force }) => ({
        url: apiPath(API_ROUTES.mediaItem, { id }),
        method: 'DELETE',
        params: force ? { force: 'true' } : undefined,
      }),
      invalidatesTags: ['Media', 'ActivityLogs'],
    }),
  }),
});

export const {
  useMediaListQuery,
  useLazyMediaItemQuery,
  useRenameMediaMutation,
  useDeleteMediaMutation,
} = mediaApi;
