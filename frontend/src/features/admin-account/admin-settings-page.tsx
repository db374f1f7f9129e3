import { can, passwordChangeSchema } from '@agency/contracts';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useFormik } from 'formik';
import { ADMIN_COMMON_NAMESPACE } from '../../components/admin/admin-common-namespace';
import { PageHeading } from '../../components/admin/page-heading';
import { PasswordField } from '../../components/admin/password-field';
import { useFormFields } from '../../components/admin/use-form-fields';
import { fieldErrorsOf } from '../../lib/api-errors';
import { useAdminSession, type AdminUser } from '../../lib/admin-session';
import { schemaValidator } from '../../lib/form-validation';
import { useNamespace } from '../../lib/translations';
import { useToast } from '../../lib/use-toast';
import { ACCOUNT_NAMESPACE } from './account-namespace';
import { useChangePasswordMutation } from './api/account-api';
import { SessionsSettings } from './components/sessions-settings';
import { TwoFactorSettings } from './components/two-factor-settings';
import { TestRecipientsSettings } from './components/test-recipients-settings';
import { AgencySettingsSection } from './components/agency-settings-section';

interface PasswordFormValues {
  currentPassword: string;
  newPassword: string;
  confirmPassword: string;
}

const EMPTY: PasswordFormValues = { currentPassword: '', newPassword: '', confirmPassword: '' };
const PASSWORD_FIELDS = ['currentPassword', 'newPassword'] as const;
const validateWithSchema = schemaValidator(
  passwordChangeSchema,
  ({ currentPassword, newPassword }: PasswordFormValues) => ({ currentPassword, newPassword }),
);

/** The password change: the confirmation checked here, the API's field reasons under their fields. */
function usePasswordChangeForm() {
  const { t } = useNamespace(ACCOUNT_NAMESPACE);
  const { t: tCommon } = useNamespace(ADMIN_COMMON_NAMESPACE);
  const toast = useToast();
  const [changePassword] = useChangePasswordMutation();
  return useFormik<PasswordFormValues>({
    initialValues: EMPTY,
    validate: async (values) => {
      const errors = await validateWithSchema(values);
      // The confirmation is the form's own check: the API receives one new password.
      if (values.confirmPassword !== values.newPassword && !errors.newPassword) {
        errors.confirmPassword = t('settings.passwordsDiffer');
      }
      return errors;
    },
    onSubmit: async ({ currentPassword, newPassword }, helpers) => {
      try {
        // The mutation keeps this tab signed in with the token the change returns.
        await changePassword({ currentPassword, newPassword }).unwrap();
        helpers.resetForm();
        toast({
          title: t('settings.changedTitle'),
          description: t('settings.changedDescription'),
          variant: 'success',
        });
      } catch (error: unknown) {
        const fields = fieldErrorsOf(error, PASSWORD_FIELDS);
        if (fields) helpers.setErrors(fields);
        toast({
          title: t('settings.failedTitle'),
          description: fields ? Object.values(fields).join(' ') : tCommon('errors.generic'),
          variant: 'destructive',
        });
      }
    },
  });
}

/** Who you are signed in as: username, email and role. */
function AccountSummary({ user }: { user: AdminUser }) {
  const { t } = useNamespace(ACCOUNT_NAMESPACE);
  const { t: tCommon } = useNamespace(ADMIN_COMMON_NAMESPACE);
  return (
    <Paper variant="outlined" sx={{ p: 3 }}>
      <Typography variant="h6" component="h2" gutterBottom>
        {t('settings.account')}
      </Typography>
      <Stack component="dl" spacing={1} sx={{ m: 0 }}>
        {[
          [t('settings.username'), user.username],
          [t('settings.email'), user.email],
          [t('settings.role'), tCommon(`roles.${user.role}`)],
        ].map(([term, value]) => (
          <Stack key={term} direction="row" spacing={2}>
            <Typography component="dt" sx={{ minWidth: 120, color: 'text.secondary' }}>
              {term}
            </Typography>
            <Typography component="dd" sx={{ m: 0, fontWeight: 600, wordBreak: 'break-all' }}>
              {value}
            </Typography>
          </Stack>
        ))}
      </Stack>
    </Paper>
  );
}

/** A new password for yourself: the current one, the new one twice. */
function PasswordChangeSection() {
  const { t } = useNamespace(ACCOUNT_NAMESPACE);
  const formik = usePasswordChangeForm();
  const field = useFormFields(formik);
  const busy = formik.isSubmitting;
  return (
    <Paper variant="outlined" sx={{ p: 3 }}>
      <Stack component="form" noValidate onSubmit={formik.handleSubmit} spacing={2}>
        <Typography variant="h6" component="h2">
          {t('settings.passwordTitle')}
        </Typography>
        <Typography variant="body2" sx={{ color: 'text.secondary' }}>
          {t('settings.passwordHint')}
        </Typography>
        <PasswordField
          {...field('currentPassword', t('settings.currentPassword'))}
          autoComplete="current-password"
          required
        />
        <PasswordField
          {...field('newPassword', t('settings.newPassword'))}
          autoComplete="new-password"
          required
        />
        <PasswordField
          {...field('confirmPassword', t('settings.confirmPassword'))}
          autoComplete="new-password"
          required
        />
        <Button type="submit" variant="contained" disabled={busy} sx={{ alignSelf: 'flex-start' }}>
          {busy ? t('settings.submitting') : t('settings.submit')}
        </Button>
      </Stack>
    </Paper>
  );
}

/** /admin/settings: who you are signed in as, and a new password for yourself. */
export function AdminSettingsPage() {
  const { t } = useNamespace(ACCOUNT_NAMESPACE);
  const session = useAdminSession();
  const managesSettings = Boolean(session && can(session.user.role, 'settings:manage'));
  return (
    <>
      <PageHeading title={t('settings.title')} subtitle={t('settings.subtitle')} />
      <Stack spacing={3} sx={{ maxWidth: 640 }}>
        {session ? <AccountSummary user={session.user} /> : null}
        <PasswordChangeSection />
        <TwoFactorSettings />
        <SessionsSettings />
        {managesSettings ? <AgencySettingsSection /> : null}
        {managesSettings ? <TestRecipientsSettings /> : null}
      </Stack>
    </>
  );
}
