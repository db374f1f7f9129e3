import { passwordResetSchema } from '@agency/contracts';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import { useFormik, type FormikProps } from 'formik';
import { useState } from 'react';
import { Link as RouterLink, useSearchParams } from 'react-router-dom';
import { PasswordField } from '../../components/admin/password-field';
import { useFormFields } from '../../components/admin/use-form-fields';
import { errorStatusOf, fieldErrorsOf } from '../../lib/api-errors';
import { schemaValidator } from '../../lib/form-validation';
import { useNamespace } from '../../lib/translations';
import { useToast } from '../../lib/use-toast';
import { ACCOUNT_NAMESPACE } from './account-namespace';
import { useResetPasswordMutation } from './api/account-api';
import { AccountCard } from './components/account-card';

interface ResetValues {
  newPassword: string;
  confirmPassword: string;
}

type ResetOutcome = 'reset' | 'expired' | null;

/**
 * The new password, twice; the link's token goes with it. A used or expired
 * link ends the form, and a refused password shows its reason.
 */
function useResetPasswordForm(token: string, setOutcome: (outcome: ResetOutcome) => void) {
  const { t } = useNamespace(ACCOUNT_NAMESPACE);
  const toast = useToast();
  const [resetPassword] = useResetPasswordMutation();
  const validate = schemaValidator(passwordResetSchema, ({ newPassword }: ResetValues) => ({
    token,
    newPassword,
  }));
  return useFormik<ResetValues>({
    initialValues: { newPassword: '', confirmPassword: '' },
    validate: async (values) => {
      const errors = await validate(values);
      if (values.confirmPassword !== values.newPassword && !errors.newPassword) {
        errors.confirmPassword = t('settings.passwordsDiffer');
      }
      return errors;
    },
    onSubmit: async ({ newPassword }, helpers) => {
      try {
        await resetPassword({ token, newPassword }).unwrap();
        setOutcome('reset');
      } catch (error: unknown) {
        if (errorStatusOf(error) === 410) {
          setOutcome('expired');
          return;
        }
        const fields = fieldErrorsOf(error, ['newPassword'] as const);
        if (fields) helpers.setErrors(fields);
        toast({
          title: t('reset.failed'),
          description: fields?.newPassword,
          variant: 'destructive',
        });
      }
    },
  });
}

function ResetPasswordForm({ formik }: { formik: FormikProps<ResetValues> }) {
  const { t } = useNamespace(ACCOUNT_NAMESPACE);
  const field = useFormFields(formik);
  const busy = formik.isSubmitting;
  return (
    <Stack component="form" noValidate onSubmit={formik.handleSubmit} spacing={2}>
      <PasswordField
        {...field('newPassword', t('settings.newPassword'))}
        autoComplete="new-password"
        autoFocus
        required
      />
      <PasswordField
        {...field('confirmPassword', t('settings.confirmPassword'))}
        autoComplete="new-password"
        required
      />
      <Button type="submit" variant="contained" size="large" disabled={busy}>
        {busy ? t('reset.saving') : t('reset.save')}
      </Button>
    </Stack>
  );
}

function PasswordResetDone() {
  const { t } = useNamespace(ACCOUNT_NAMESPACE);
  return (
    <Stack spacing={2}>
      <Alert severity="success" role="status">
        {t('reset.done')}
      </Alert>
      <Button component={RouterLink} to="/admin/login" variant="contained">
        {t('reset.signIn')}
      </Button>
    </Stack>
  );
}

function ResetLinkExpired() {
  const { t } = useNamespace(ACCOUNT_NAMESPACE);
  return (
    <Alert severity="warning" role="status">
      {t('reset.expired')}{' '}
      <Link component={RouterLink} to="/admin/forgot-password">
        {t('reset.askAgain')}
      </Link>
    </Alert>
  );
}

/** /admin/reset-password?token=…: the link of the reset mail sets a new password. */
export function ResetPasswordPage() {
  const { t } = useNamespace(ACCOUNT_NAMESPACE);
  const [searchParams] = useSearchParams();
  const token = searchParams.get('token') ?? '';
  const [outcome, setOutcome] = useState<ResetOutcome>(token ? null : 'expired');
  const formik = useResetPasswordForm(token, setOutcome);
  let body;
  if (outcome === 'reset') body = <PasswordResetDone />;
  else if (outcome === 'expired') body = <ResetLinkExpired />;
  else body = <ResetPasswordForm formik={formik} />;
  return <AccountCard title={t('reset.resetTitle')}>{body}</AccountCard>;
}
