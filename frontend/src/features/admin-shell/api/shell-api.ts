import type { MeResponse } from '@agency/contracts';
import { api } from '../../../lib/api';

export const shellApi = api.injectEndpoints({
  endpoints: (build) => ({
    // Asked when the admin area opens: a token that expired meanwhile ends the session at once.
    currentUser: build.query<MeResponse, undefined>({ query: () => 'admin/me' }),
  }),
});

export const { useCurrentUserQuery } = shellApi;
