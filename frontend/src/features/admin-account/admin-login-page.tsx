import {
  isSecondFactorResponse,
  loginSchema,
  type LoginInput,
  type LoginOptionsResponse,
} from '@agency/contracts';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useFormik, type FormikProps } from 'formik';
import { Link as RouterLink, Navigate, useSearchParams } from 'react-router-dom';
import { PasswordField } from '../../components/admin/password-field';
import { useFormFields } from '../../components/admin/use-form-fields';
import { safeAdminReturnPath, useAdminSession } from '../../lib/admin-session';
import { useNamespace } from '../../lib/translations';
import { ACCOUNT_NAMESPACE } from './account-namespace';
import {
  useCompleteEnrolmentMutation,
  useLoginMutation,
  useLoginOptionsQuery,
  useSecondFactorMutation,
} from './api/account-api';
import { AccountCard } from './components/account-card';
import { DemoHint } from './components/demo-hint';
import { EnrolmentPanel } from './components/enrolment-panel';
import { RecoveryCodes } from './components/recovery-codes';
import { SecondFactorStep } from './components/second-factor-step';
import { useSignInSteps, type SignInStep, type SignInSteps } from './hooks/use-sign-in-steps';

type LoginDemo = NonNullable<LoginOptionsResponse['demo']>;

const EMPTY_LOGIN: LoginInput = { username: '', password: '' };

/** The password form; its answer either signs in or leads to a second-factor step. */
function useLoginForm({ setStep, failed, signedIn, beginEnrolment }: SignInSteps) {
  const [login] = useLoginMutation();
  return useFormik<LoginInput>({
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
}

/** The first step: the demo hint (in demo mode), username and password. */
function PasswordStep({
  formik,
  demo,
}: {
  formik: FormikProps<LoginInput>;
  demo?: LoginDemo | null;
}) {
  const { t } = useNamespace(ACCOUNT_NAMESPACE);
  const field = useFormFields(formik);
  const busy = formik.isSubmitting;
  return (
    <>
      {demo ? <DemoHint demo={demo} onUse={() => void formik.setValues(demo)} /> : null}
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
  );
}

/** The code from the authenticator app (or a recovery code) after the password. */
function TotpStep({ challenge, steps }: { challenge: string; steps: SignInSteps }) {
  const [secondFactor] = useSecondFactorMutation();
  return (
    <SecondFactorStep
      onCancel={() => steps.setStep({ name: 'password' })}
      onCode={async (code) => {
        try {
          await steps.signedIn(await secondFactor({ challenge, code }).unwrap());
          return undefined;
        } catch (error: unknown) {
          return steps.codeRefusal(error);
        }
      }}
    />
  );
}

type EnrolStepState = Extract<SignInStep, { name: 'enrol' }>;

/** Two-factor is required and not set up yet: set it up before going on. */
function EnrolStep({ step, steps }: { step: EnrolStepState; steps: SignInSteps }) {
  const { t } = useNamespace(ACCOUNT_NAMESPACE);
  const [completeEnrolment] = useCompleteEnrolmentMutation();
  return (
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
            steps.setStep({ name: 'codes', codes: recoveryCodes, signedIn: answer });
            return undefined;
          } catch (error: unknown) {
            return steps.codeRefusal(error);
          }
        }}
      />
    </>
  );
}

const STEP_TITLE_KEYS = {
  password: 'login.title',
  totp: 'twoFactor.title',
  enrol: 'twoFactor.enrolTitle',
  codes: 'twoFactor.codesTitle',
} as const;

/** /admin/login: staff sign in, then go back where they were sent from (or the dashboard). */
export function AdminLoginPage() {
  const { t } = useNamespace(ACCOUNT_NAMESPACE);
  const [searchParams] = useSearchParams();
  const destination = safeAdminReturnPath(searchParams.get('next')) ?? '/admin/dashboard';
  const { data: options } = useLoginOptionsQuery(undefined);
  const session = useAdminSession();
  const steps = useSignInSteps(destination);
  const { step } = steps;
  const formik = useLoginForm(steps);

  // Already signed in (another tab, or the back button): nothing to do here.
  if (session && !formik.isSubmitting && step.name === 'password') {
    return <Navigate to={destination} replace />;
  }

  return (
    <AccountCard
      title={t(STEP_TITLE_KEYS[step.name])}
      subtitle={step.name === 'password' ? t('login.subtitle') : undefined}
      back={{ to: '/', label: t('login.backToSite') }}
      wide={step.name === 'codes'}
    >
      {step.name === 'password' ? <PasswordStep formik={formik} demo={options?.demo} /> : null}
      {step.name === 'totp' ? <TotpStep challenge={step.challenge} steps={steps} /> : null}
      {step.name === 'enrol' ? <EnrolStep step={step} steps={steps} /> : null}
      {step.name === 'codes' ? (
        <RecoveryCodes codes={step.codes} onDone={() => void steps.signedIn(step.signedIn)} />
      ) : null}
    </AccountCard>
  );
}
