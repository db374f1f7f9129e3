import {
  isSecondFactorResponse,
  loginSchema,
  type LoginInput,
  type LoginSuccessResponse,
  type TwoFactorSetupResponse,
} from '@agency/contracts';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useFormik } from 'formik';
import { useState } from 'react';
import { Link as RouterLink, Navigate, useNavigate, useSearchParams } from 'react-router-dom';
import { PasswordField } from '../../components/admin/password-field';
import { useFormFields } from '../../components/admin/use-form-fields';
import { safeAdminReturnPath, saveAdminSession, useAdminSession } from '../../lib/admin-session';
import { apiErrorMessage, errorStatusOf, fieldErrorsOf } from '../../lib/api-errors';
import { api } from '../../lib/api';
import { useAppDispatch } from '../../lib/hooks';
import { useNamespace } from '../../lib/translations';
import { useToast } from '../../lib/use-toast';
import { ACCOUNT_NAMESPACE } from './account-namespace';
import {
  useCompleteEnrolmentMutation,
  useLoginMutation,
  useLoginOptionsQuery,
  useSecondFactorMutation,
  useStartEnrolmentMutation,
} from './api/account-api';
import { AccountCard } from './components/account-card';
import { DemoHint } from './components/demo-hint';
import { EnrolmentPanel } from './components/enrolment-panel';
import { RecoveryCodes } from './components/recovery-codes';
import { SecondFactorStep } from './components/second-factor-step';
import { loginFailureText } from './login-failure';

const EMPTY_LOGIN: LoginInput = { username: '', password: '' };

/** Where the sign-in stands after the password. */
type Step =
  | { name: 'password' }
  | { name: 'totp'; challenge: string }
  | { name: 'enrol'; challenge: string; setup?: TwoFactorSetupResponse; failed?: boolean }
  | { name: 'codes'; codes: string[]; signedIn: LoginSuccessResponse };

/** /admin/login: staff sign in, then go back where they were sent from (or the dashboard). */
export function AdminLoginPage() {
  const { t } = useNamespace(ACCOUNT_NAMESPACE);
  const toast = useToast();
  const navigate = useNavigate();
  const dispatch = useAppDispatch();
  const [searchParams] = useSearchParams();
  const destination = safeAdminReturnPath(searchParams.get('next')) ?? '/admin/dashboard';
  const { data: options } = useLoginOptionsQuery(undefined);
  const [login] = useLoginMutation();
  const [secondFactor] = useSecondFactorMutation();
  const [startEnrolment] = useStartEnrolmentMutation();
  const [completeEnrolment] = useCompleteEnrolmentMutation();
  const session = useAdminSession();
  const [step, setStep] = useState<Step>({ name: 'password' });

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

  const formik = useFormik<LoginInput>({
    initialValues: EMPTY_LOGIN,
    validationSchema: loginSchema,
    // Leaving the empty username for the "Forgot your password?" link must
    // not move that link under the pointer with a message: check on submit.
    validateOnBlur: false,
    onSubmit: async (values) => {
      try {
        const answer = await login(values).unwrap();
        if (isSecondFactorResponse(answer)) {
          if (answer.secondFactor === 'enrol') beginEnrolment(answer.challenge);
          else setStep({ name: 'totp', challenge: answer.challenge });
          return;
        }
        await signedIn(answer);
      } catch (error: unknown) {
        failed(error);
      }
    },
  });
  const field = useFormFields(formik);

  // Already signed in (another tab, or the back button): nothing to do here.
  if (session && !formik.isSubmitting && step.name === 'password') {
    return <Navigate to={destination} replace />;
  }

  const busy = formik.isSubmitting;
  const title =
    step.name === 'password'
      ? t('login.title')
      : step.name === 'codes'
        ? t('twoFactor.codesTitle')
        : step.name === 'enrol'
          ? t('twoFactor.enrolTitle')
          : t('twoFactor.title');
  return (
    <AccountCard
      title={title}
      subtitle={step.name === 'password' ? t('login.subtitle') : undefined}
      back={{ to: '/', label: t('login.backToSite') }}
      wide={step.name === 'codes'}
    >
      {step.name === 'password' ? (
        <>
          {options?.demo ? (
            <DemoHint
              demo={options.demo}
              onUse={() => void formik.setValues(options.demo ?? EMPTY_LOGIN)}
            />
          ) : null}
          <Stack component="form" noValidate onSubmit={formik.handleSubmit} spacing={2}>
            <TextField
              {...field('username', t('login.username'))}
              autoComplete="username"
              autoFocus
              required
            />
            <PasswordField
              {...field('password', t('login.password'))}
              autoComplete="current-password"
              required
            />
            <Button type="submit" variant="contained" size="large" disabled={busy}>
              {busy ? t('login.submitting') : t('login.submit')}
            </Button>
            <Link component={RouterLink} to="/admin/forgot-password" variant="body2">
              {t('login.forgotPassword')}
            </Link>
          </Stack>
        </>
      ) : null}
      {step.name === 'totp' ? (
        <SecondFactorStep
          onCancel={() => setStep({ name: 'password' })}
          onCode={async (code) => {
            try {
              await signedIn(await secondFactor({ challenge: step.challenge, code }).unwrap());
              return undefined;
            } catch (error: unknown) {
              return codeRefusal(error);
            }
          }}
        />
      ) : null}
      {step.name === 'enrol' ? (
        <>
          <Alert severity="info">{t('twoFactor.required')}</Alert>
          <EnrolmentPanel
            setup={step.setup}
            failed={Boolean(step.failed)}
            onCode={async (code) => {
              try {
                const { recoveryCodes, ...answer } = await completeEnrolment({
                  challenge: step.challenge,
                  code,
                }).unwrap();
                setStep({ name: 'codes', codes: recoveryCodes, signedIn: answer });
                return undefined;
              } catch (error: unknown) {
                return codeRefusal(error);
              }
            }}
          />
        </>
      ) : null}
      {step.name === 'codes' ? (
        <RecoveryCodes codes={step.codes} onDone={() => void signedIn(step.signedIn)} />
      ) : null}
    </AccountCard>
  );
}
