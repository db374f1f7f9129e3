import { API_ROUTES } from '@agency/contracts';
import {
  createApi,
  fetchBaseQuery,
  type BaseQueryFn,
  type FetchArgs,
  type FetchBaseQueryError,
} from '@reduxjs/toolkit/query/react';
import { expireAdminSession } from './admin-session';
import { readStorage, STORAGE_KEYS } from './storage';

/** Admin endpoints live under /api/admin; only those carry the staff bearer token. */
function isAdminCall(args: string | FetchArgs): boolean {
  const url = typeof args === 'string' ? args : args.url;
  return url.startsWith(`${API_ROUTES.admin}/`);
}

const rawBaseQuery = fetchBaseQuery({
  // Always same-origin: Vite (dev/preview) and nginx (production) proxy /api,
  // and every call names its whole path from API_ROUTES.
  baseUrl: '',
  credentials: 'include',
});

/**
 * Adds the bearer token to admin calls and asks for answers (validation
 * reasons) in the page's language. When the API says the token is no longer
 * valid, the session ends: the admin area then sends staff to sign in, with
 * one notice however many calls were refused.
 */
function withHeaders(args: string | FetchArgs, token: string | null): FetchArgs {
  const request: FetchArgs = typeof args === 'string' ? { url: args } : { ...args };
  const headers = new Headers(request.headers as HeadersInit | undefined);
  if (token) headers.set('Authorization', `Bearer ${token}`);
  // i18n keeps <html lang> on the visitor's language (app/i18n.ts).
  if (document.documentElement.lang) {
    headers.set('Accept-Language', document.documentElement.lang);
  }
  request.headers = headers;
  return request;
}

const baseQuery: BaseQueryFn<string | FetchArgs, unknown, FetchBaseQueryError> = async (
  args,
  api,
  extraOptions,
) => {
  const admin = isAdminCall(args);
  const token = admin ? readStorage(STORAGE_KEYS.adminToken) : null;
  const request = withHeaders(args, token);
  const result = await rawBaseQuery(request, api, extraOptions);
  const isLoginCall = request.url.startsWith(API_ROUTES.login);
  if (!admin || isLoginCall || result.error?.status !== 401) return result;
  // A call that left before a password change renewed the session carries the
  // token the change revoked: its refusal says nothing about the new session,
  // so it is asked again with the new token instead of signing staff out.
  const current = readStorage(STORAGE_KEYS.adminToken);
  if (token && current && current !== token) {
    return rawBaseQuery(withHeaders(args, current), api, extraOptions);
  }
  expireAdminSession();
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
    'CampaignTemplates',
    'Stats',
    'Session',
    'Lists',
    'Imports',
    'Suppressions',
    'AgencySettings',
    'People',
    'Segments',
    'Media',
  ],
  endpoints: () => ({}),
});
