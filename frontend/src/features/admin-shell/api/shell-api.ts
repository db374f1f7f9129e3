import { API_ROUTES } from '@agency/contracts';
import type { MeResponse } from '@agency/contracts';
import { api } from '../../../lib/api';

export const shellApi = api.injectEndpoints({
  endpoints: (build) => ({
    // Asked when the admin area opens: a token that expired meanwhile ends the session at once.
    currentUser: build.query<MeResponse, undefined>({ query: () => API_ROUTES.me }),
    // Sign Out ends the session on the server too: a copy of the token is worthless after it.
    // The token is passed in: the stored one is gone by the time the call leaves.
    logout: build.mutation<null, string>({
      query: (token) => ({
        url: API_ROUTES.logout,
        method: 'POST',
        headers: { Authorization: `Bearer ${token}` },
      }),
    }),
  }),
});

export const { useCurrentUserQuery, useLogoutMutation } = shellApi;
