import type {
  LoginInput,
  LoginOptionsResponse,
  LoginSuccessResponse,
  PasswordChangeInput,
  PasswordChangeResponse,
} from '@agency/contracts';
import { api } from '../../../lib/api';

export const accountApi = api.injectEndpoints({
  endpoints: (build) => ({
    loginOptions: build.query<LoginOptionsResponse, undefined>({
      query: () => 'admin/login-options',
    }),
    login: build.mutation<LoginSuccessResponse, LoginInput>({
      query: (body) => ({ url: 'admin/login', method: 'POST', body }),
    }),
    changePassword: build.mutation<PasswordChangeResponse, PasswordChangeInput>({
      query: (body) => ({ url: 'admin/me/password', method: 'PUT', body }),
    }),
  }),
});

export const { useLoginOptionsQuery, useLoginMutation, useChangePasswordMutation } = accountApi;
