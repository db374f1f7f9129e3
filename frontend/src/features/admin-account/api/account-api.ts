import { API_ROUTES, apiPath } from '@agency/contracts';
import type {
  EnrolmentCompleteResponse,
  LoginInput,
  LoginOptionsResponse,
  LoginSecondFactorResponse,
  LoginSuccessResponse,
  PasswordChangeInput,
  PasswordChangeResponse,
  PasswordResetInput,
  PasswordResetRequestInput,
  PasswordResetRequestResponse,
  PasswordResetResponse,
  ReauthenticationInput,
  RecoveryCodesResponse,
  SecondFactorInput,
  SessionListResponse,
  TwoFactorConfirmInput,
  TwoFactorSetupInput,
  TwoFactorSetupResponse,
  TwoFactorStatusResponse,
} from '@agency/contracts';
import { saveAdminSession } from '../../../lib/admin-session';
import { api } from '../../../lib/api';

export const accountApi = api.injectEndpoints({
  endpoints: (build) => ({
    loginOptions: build.query<LoginOptionsResponse, undefined>({
      query: () => API_ROUTES.loginOptions,
    }),
    login: build.mutation<LoginSuccessResponse | LoginSecondFactorResponse, LoginInput>({
      query: (body) => ({ url: API_ROUTES.login, method: 'POST', body }),
    }),
    secondFactor: build.mutation<LoginSuccessResponse, SecondFactorInput>({
      query: (body) => ({ url: API_ROUTES.loginSecondFactor, method: 'POST', body }),
    }),
    startEnrolment: build.mutation<TwoFactorSetupResponse, { challenge: string }>({
      query: (body) => ({ url: API_ROUTES.loginEnrolment, method: 'POST', body }),
    }),
    completeEnrolment: build.mutation<EnrolmentCompleteResponse, SecondFactorInput>({
      query: (body) => ({ url: API_ROUTES.loginEnrolmentConfirm, method: 'POST', body }),
    }),
    requestPasswordReset: build.mutation<PasswordResetRequestResponse, PasswordResetRequestInput>({
      query: (body) => ({ url: API_ROUTES.passwordReset, method: 'POST', body }),
    }),
    resetPassword: build.mutation<PasswordResetResponse, PasswordResetInput>({
      query: (body) => ({ url: API_ROUTES.passwordResetConfirm, method: 'POST', body }),
    }),
    changePassword: build.mutation<PasswordChangeResponse, PasswordChangeInput>({
      // The change revokes this tab's token. The new one is stored here, before
      // the mutation settles, because settling refetches the Session queries at
      // once: sent with the revoked token, their 401 would sign staff out.
      async queryFn(body, _api, _extraOptions, baseQuery) {
        const result = await baseQuery({ url: API_ROUTES.myPassword, method: 'PUT', body });
        if (result.error) return { error: result.error };
        const renewed = result.data as PasswordChangeResponse;
        saveAdminSession({ token: renewed.token, user: renewed.user });
        return { data: renewed };
      },
      invalidatesTags: ['Session'],
    }),
    twoFactorStatus: build.query<TwoFactorStatusResponse, undefined>({
      query: () => API_ROUTES.myTwoFactor,
      providesTags: ['Session'],
    }),
    setupTwoFactor: build.mutation<TwoFactorSetupResponse, TwoFactorSetupInput>({
      query: (body) => ({ url: API_ROUTES.myTwoFactorSetup, method: 'POST', body }),
    }),
    confirmTwoFactor: build.mutation<RecoveryCodesResponse, TwoFactorConfirmInput>({
      query: (body) => ({ url: API_ROUTES.myTwoFactorConfirm, method: 'POST', body }),
      invalidatesTags: ['Session'],
    }),
    renewRecoveryCodes: build.mutation<RecoveryCodesResponse, ReauthenticationInput>({
      query: (body) => ({ url: API_ROUTES.myRecoveryCodes, method: 'POST', body }),
      invalidatesTags: ['Session'],
    }),
    disableTwoFactor: build.mutation<null, ReauthenticationInput>({
      query: (body) => ({ url: API_ROUTES.myTwoFactorDisable, method: 'POST', body }),
      invalidatesTags: ['Session'],
    }),
    sessions: build.query<SessionListResponse, undefined>({
      query: () => API_ROUTES.mySessions,
      providesTags: ['Session'],
    }),
    endSession: build.mutation<null, string>({
      query: (id) => ({ url: apiPath(API_ROUTES.mySession, { id }), method: 'DELETE' }),
      invalidatesTags: ['Session'],
    }),
    endOtherSessions: build.mutation<null, ReauthenticationInput>({
      query: (body) => ({ url: API_ROUTES.myOtherSessionsEnd, method: 'POST', body }),
      invalidatesTags: ['Session'],
    }),
  }),
});

export const {
  useLoginOptionsQuery,
  useLoginMutation,
  useSecondFactorMutation,
  useStartEnrolmentMutation,
  useCompleteEnrolmentMutation,
  useRequestPasswordResetMutation,
  useResetPasswordMutation,
  useChangePasswordMutation,
  useTwoFactorStatusQuery,
  useSetupTwoFactorMutation,
  useConfirmTwoFactorMutation,
  useRenewRecoveryCodesMutation,
  useDisableTwoFactorMutation,
  useSessionsQuery,
  useEndSessionMutation,
  useEndOtherSessionsMutation,
} = accountApi;
