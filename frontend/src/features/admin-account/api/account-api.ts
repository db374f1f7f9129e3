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
  RecoveryCodesResponse,
  SecondFactorInput,
  SessionListResponse,
  TwoFactorSetupResponse,
  TwoFactorStatusResponse,
} from '@agency/contracts';
import { api } from '../../../lib/api';

export const accountApi = api.injectEndpoints({
  endpoints: (build) => ({
    loginOptions: build.query<LoginOptionsResponse, undefined>({
      query: () => 'admin/login-options',
    }),
    login: build.mutation<LoginSuccessResponse | LoginSecondFactorResponse, LoginInput>({
      query: (body) => ({ url: 'admin/login', method: 'POST', body }),
    }),
    secondFactor: build.mutation<LoginSuccessResponse, SecondFactorInput>({
      query: (body) => ({ url: 'admin/login/second-factor', method: 'POST', body }),
    }),
    startEnrolment: build.mutation<TwoFactorSetupResponse, { challenge: string }>({
      query: (body) => ({ url: 'admin/login/enrolment', method: 'POST', body }),
    }),
    completeEnrolment: build.mutation<EnrolmentCompleteResponse, SecondFactorInput>({
      query: (body) => ({ url: 'admin/login/enrolment/confirm', method: 'POST', body }),
    }),
    requestPasswordReset: build.mutation<PasswordResetRequestResponse, PasswordResetRequestInput>({
      query: (body) => ({ url: 'admin/password-reset', method: 'POST', body }),
    }),
    resetPassword: build.mutation<PasswordResetResponse, PasswordResetInput>({
      query: (body) => ({ url: 'admin/password-reset/confirm', method: 'POST', body }),
    }),
    changePassword: build.mutation<PasswordChangeResponse, PasswordChangeInput>({
      query: (body) => ({ url: 'admin/me/password', method: 'PUT', body }),
      invalidatesTags: ['Session'],
    }),
    twoFactorStatus: build.query<TwoFactorStatusResponse, undefined>({
      query: () => 'admin/me/two-factor',
      providesTags: ['Session'],
    }),
    setupTwoFactor: build.mutation<TwoFactorSetupResponse, undefined>({
      query: () => ({ url: 'admin/me/two-factor/setup', method: 'POST' }),
    }),
    confirmTwoFactor: build.mutation<RecoveryCodesResponse, { code: string }>({
      query: (body) => ({ url: 'admin/me/two-factor/confirm', method: 'POST', body }),
      invalidatesTags: ['Session'],
    }),
    renewRecoveryCodes: build.mutation<RecoveryCodesResponse, { code: string }>({
      query: (body) => ({ url: 'admin/me/two-factor/recovery-codes', method: 'POST', body }),
      invalidatesTags: ['Session'],
    }),
    disableTwoFactor: build.mutation<null, { password: string }>({
      query: (body) => ({ url: 'admin/me/two-factor/disable', method: 'POST', body }),
      invalidatesTags: ['Session'],
    }),
    sessions: build.query<SessionListResponse, undefined>({
      query: () => 'admin/me/sessions',
      providesTags: ['Session'],
    }),
    endSession: build.mutation<null, string>({
      query: (id) => ({ url: `admin/me/sessions/${encodeURIComponent(id)}`, method: 'DELETE' }),
      invalidatesTags: ['Session'],
    }),
    endOtherSessions: build.mutation<null, undefined>({
      query: () => ({ url: 'admin/me/sessions', method: 'DELETE' }),
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
