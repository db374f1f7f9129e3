import {
  isLocale,
  passwordResetRequestSchema,
  type PasswordResetRequestInput,
} from '@agency/contracts';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useFormik } from 'formik';
import { useState } from 'react';
import { useFormFields } from '../../components/admin/use-form-fields';
import { loginFailureText } from './login-failure';
import { useNamespace } from '../../lib/translations';
import { useToast } from '../../lib/use-toast';
import { ACCOUNT_NAMESPACE } from './account-namespace';
import { useRequestPasswordResetMutation } from './api/account-api';
import { AccountCard } from './components/account-card';

/** /admin/forgot-password: a reset link by mail; the same answer whoever the address belongs to. */
export function ForgotPasswordPage() {
  const { t, i18n } = useNamespace(ACCOUNT_NAMESPACE);
  const toast = useToast();
  const [requestReset] = useRequestPasswordResetMutation();
  const [sentTo, setSentTo] = useState<string | null>(null);
  const formik = useFormik<Pick<PasswordResetRequestInput, 'email'>>({
    initialValues: { email: '' },
    validationSchema: passwordResetRequestSchema,
    onSubmit: async ({ email }) => {
      try {
        const language = i18n.language.slice(0, 2);
        await requestReset({ email, ...(isLocale(language) ? { locale: language } : {}) }).unwrap();
        setSentTo(email.trim());
      } catch (error: unknown) {
        const failure = loginFailureText(error);
        toast({
          title: t('reset.requestFailed'),
          description:
            'serverText' in failure && failure.serverText ? failure.serverText : t(failure.key),
          variant: 'destructive',
        });
      }
    },
  });
  const field = useFormFields(formik);
  const busy = formik.isSubmitting;
  return (
    <AccountCard title={t('reset.forgotTitle')}>
      {sentTo ? (
        <Alert severity="success" role="status">
          {t('reset.sent', { email: sentTo })}
        </Alert>
      ) : (
        <Stack component="form" noValidate onSubmit={formik.handleSubmit} spacing={2}>
          <Typography variant="body2" sx={{ color: 'text.secondary' }}>
            {t('reset.forgotHint')}
          </Typography>
          <TextField
            {...field('email', t('reset.email'))}
            type="email"
            autoComplete="email"
            autoFocus
            required
          />
          <Button type="submit" variant="contained" size="large" disabled={busy}>
            {busy ? t('reset.sending') : t('reset.send')}
          </Button>
        </Stack>
      )}
    </AccountCard>
  );
}
