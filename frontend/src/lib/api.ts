import {
  createApi,
  fetchBaseQuery,
  type BaseQueryFn,
  type FetchArgs,
  type FetchBaseQueryError,
} from '@reduxjs/toolkit/query/react';
import { readStorage, removeStorage, STORAGE_KEYS } from './storage';

/** Admin endpoints live under /api/admin; only those carry the staff bearer token. */
function isAdminCall(args: string | FetchArgs): boolean {
  const url = typeof args === 'string' ? args : args.url;
  return url.replace(/^\//, '').startsWith('admin/');
}

const rawBaseQuery = fetchBaseQuery({
  // Always same-origin: Vite (dev/preview) and nginx (production) proxy /api.
  baseUrl: '/api',
  credentials: 'include',
});

/**
 * Adds the bearer token to admin calls and, when the API says the token is no
 * longer valid, drops the stored session and sends staff back to sign in.
 */
const baseQuery: BaseQueryFn<string | FetchArgs, unknown, FetchBaseQueryError> = async (
  args,
  api,
  extraOptions,
) => {
  const admin = isAdminCall(args);
  const token = admin ? readStorage(STORAGE_KEYS.adminToken) : null;
  const request: FetchArgs = typeof args === 'string' ? { url: args } : { ...args };
  if (token) {
    const headers = new Headers(request.headers as HeadersInit | undefined);
    headers.set('Authorization', `Bearer ${token}`);
    request.headers = headers;
  }
  const result = await rawBaseQuery(request, api, extraOptions);
  const isLoginCall = request.url.replace(/^\//, '').startsWith('admin/login');
  if (admin && !isLoginCall && result.error?.status === 401) {
    removeStorage(STORAGE_KEYS.adminToken);
    removeStorage(STORAGE_KEYS.adminUser);
    if (window.location.pathname !== '/admin/login') window.location.assign('/admin/login');
  }
  return result;
};

/** The one RTK Query API of the app; features add endpoints with `injectEndpoints`. */
export const api = createApi({
  reducerPath: 'api',
  baseQuery,
  tagTypes: [
    'Contacts',
    'Subscribers',
    'Users',
    'ActivityLogs',
    'Clients',
    'Leads',
    'Campaigns',
    'Stats',
  ],
  endpoints: () => ({}),
});
