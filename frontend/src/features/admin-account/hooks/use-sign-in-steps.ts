import type { LoginSuccessResponse, TwoFactorSetupResponse } from '@agency/contracts';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { saveAdminSession } from '../../../lib/admin-session';
import { apiErrorMessage, errorStatusOf, fieldErrorsOf } from '../../../lib/api-errors';
import { api } from '../../../lib/api';
import { useAppDispatch } from '../../../lib/hooks';
import { useNamespace } from '../../../lib/translations';
import { useToast } from '../../../lib/use-toast';
import { ACCOUNT_NAMESPACE } from '../account-namespace';
import { useStartEnrolmentMutation } from '../api/account-api';
import { loginFailureText } from '../login-failure';

/** Where the sign-in stands after the password. */
export type SignInStep =
  | { name: 'password' }
  | { name: 'totp'; challenge: string }
  | { name: 'enrol'; challenge: string; setup?: TwoFactorSetupResponse; failed?: boolean }
  | { name: 'codes'; codes: string[]; signedIn: LoginSuccessResponse };

/**
 * The steps of a sign-in and what moves between them: a refusal toast, the
 * welcome (and the warning when few recovery codes are left) before going to
 * `destination`, a refused second-factor code, and the start of an enrolment.
 */
export function useSignInSteps(destination: string) {
  const { t } = useNamespace(ACCOUNT_NAMESPACE);
  const toast = useToast();
  const navigate = useNavigate();
  const dispatch = useAppDispatch();
  const [startEnrolment] = useStartEnrolmentMutation();
  const [step, setStep] = useState<SignInStep>({ name: 'password' });

  const failed = (error: unknown) => {
    const failure = loginFailureText(error);
    toast({
      title: t('login.failedTitle'),
      description:
        'serverText' in failure && failure.serverText ? failure.serverText : t(failure.key),
      variant: 'destructive',
    });
  };

  const signedIn = async ({ token, user, recoveryCodesLeft }: LoginSuccessResponse) => {
    // Nothing cached for a previous session may show in this one.
    dispatch(api.util.resetApiState());
    saveAdminSession({ token, user });
    toast({
      title: t('login.welcomeTitle'),
      description: t('login.welcomeDescription', { username: user.username }),
      variant: 'success',
    });
    if (recoveryCodesLeft !== undefined && recoveryCodesLeft <= 3) {
      toast({
        title: t('twoFactor.fewCodesTitle'),
        description: t('twoFactor.fewCodes', { count: recoveryCodesLeft }),
        variant: 'default',
      });
    }
    await navigate(destination, { replace: true });
  };

  /** A refused code: the reason under the field, or back to the password when the step expired. */
  const codeRefusal = (error: unknown): string | undefined => {
    const status = errorStatusOf(error);
    const field = fieldErrorsOf(error, ['code'] as const)?.code;
    if (field) return field;
    if (status === 401 && /expired/i.test(apiErrorMessage(error) ?? '')) {
      setStep({ name: 'password' });
      failed(error);
      return undefined;
    }
    if (status === 401) return t('twoFactor.invalidCode');
    failed(error);
    return undefined;
  };

  const beginEnrolment = (challenge: string) => {
    setStep({ name: 'enrol', challenge });
    startEnrolment({ challenge })
      .unwrap()
      .then((setup) => setStep({ name: 'enrol', challenge, setup }))
      .catch(() => setStep({ name: 'enrol', challenge, failed: true }));
  };

  return { step, setStep, failed, signedIn, codeRefusal, beginEnrolment };
}

export type SignInSteps = ReturnType<typeof useSignInSteps>;
