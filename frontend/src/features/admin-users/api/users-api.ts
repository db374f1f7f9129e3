import { API_ROUTES, apiPath } from '@agency/contracts';
import type {
  ActivityLogDto,
  ActivityLogListQuery,
  KeysetPage,
  Page,
  UserCreateInput,
  UserDto,
  UserListQuery,
  UserUpdateInput,
} from '@agency/contracts';
import { api } from '../../../lib/api';

export const usersApi = api.injectEndpoints({
  endpoints: (build) => ({
    userList: build.query<Page<UserDto>, Partial<UserListQuery>>({
      query: (params) => ({ url: API_ROUTES.users, params }),
      providesTags: ['Users'],
    }),
    createUser: build.mutation<UserDto, UserCreateInput>({
      query: (body) => ({ url: API_ROUTES.users, method: 'POST', body }),
      invalidatesTags: ['Users', 'ActivityLogs'],
    }),
    updateUser: build.mutation<UserDto, { id: string; body: UserUpdateInput }>({
      query: ({ id, body }) => ({
        url: apiPath(API_ROUTES.user, { id }),
        method: 'PUT',
        body,
      }),
      invalidatesTags: ['Users', 'ActivityLogs'],
    }),
    deleteUser: build.mutation<null, string>({
      query: (id) => ({ url: apiPath(API_ROUTES.user, { id }), method: 'DELETE' }),
      invalidatesTags: ['Users', 'ActivityLogs'],
    }),
    resetUserTwoFactor: build.mutation<null, string>({
      query: (id) => ({
        url: apiPath(API_ROUTES.userTwoFactor, { id }),
        method: 'DELETE',
      }),
      invalidatesTags: ['Users', 'ActivityLogs'],
    }),
    endUserSessions: build.mutation<null, string>({
      query: (id) => ({ url: apiPath(API_ROUTES.userSessions, { id }), method: 'DELETE' }),
      invalidatesTags: ['ActivityLogs'],
    }),
    activityLog: build.query<KeysetPage<ActivityLogDto>, Partial<ActivityLogListQuery>>({
      query: (params) => ({ url: API_ROUTES.activityLogs, params }),
      providesTags: ['ActivityLogs'],
    }),
  }),
});

export const {
  useUserListQuery,
  useCreateUserMutation,
  useUpdateUserMutation,
  useDeleteUserMutation,
  useActivityLogQuery,
  useResetUserTwoFactorMutation,
  useEndUserSessionsMutation,
} = usersApi;
