import { loginSchema, type LoginInput } from '@agency/contracts';
import LockOutlinedIcon from '@mui/icons-material/LockOutlined';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Container from '@mui/material/Container';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useFormik } from 'formik';
import { Link as RouterLink, Navigate, useNavigate, useSearchParams } from 'react-router-dom';
import { PasswordField } from '../../components/admin/password-field';
import { useFormFields } from '../../components/admin/use-form-fields';
import { LanguageSelector } from '../../components/language-selector';
import { safeAdminReturnPath, saveAdminSession, useAdminSession } from '../../lib/admin-session';
import { api } from '../../lib/api';
import { useAppDispatch } from '../../lib/hooks';
import { useNamespace } from '../../lib/translations';
import { useToast } from '../../lib/use-toast';
import { ACCOUNT_NAMESPACE } from './account-namespace';
import { useLoginMutation, useLoginOptionsQuery } from './api/account-api';
import { DemoHint } from './components/demo-hint';
import { loginFailureText } from './login-failure';

const EMPTY_LOGIN: LoginInput = { username: '', password: '' };

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
  const session = useAdminSession();

  const formik = useFormik<LoginInput>({
    initialValues: EMPTY_LOGIN,
    validationSchema: loginSchema,
    onSubmit: async (values) => {
      try {
        const { token, user } = await login(values).unwrap();
        // Nothing cached for a previous session may show in this one.
        dispatch(api.util.resetApiState());
        saveAdminSession({ token, user });
        toast({
          title: t('login.welcomeTitle'),
          description: t('login.welcomeDescription', { username: user.username }),
          variant: 'success',
        });
        await navigate(destination, { replace: true });
      } catch (error: unknown) {
        const failure = loginFailureText(error);
        toast({
          title: t('login.failedTitle'),
          description:
            'serverText' in failure && failure.serverText ? failure.serverText : t(failure.key),
          variant: 'destructive',
        });
      }
    },
  });
  const field = useFormFields(formik);

  // Already signed in (another tab, or the back button): nothing to do here.
  if (session && !formik.isSubmitting) return <Navigate to={destination} replace />;

  const busy = formik.isSubmitting;
  return (
    <Box
      component="main"
      sx={{
        minHeight: '100vh',
        display: 'flex',
        alignItems: 'center',
        bgcolor: 'background.default',
        py: 4,
      }}
    >
      <Container maxWidth="xs">
        <Paper variant="outlined" sx={{ p: { xs: 3, sm: 4 } }}>
          <Stack spacing={2.5} sx={{ alignItems: 'stretch' }}>
            <Stack spacing={1} sx={{ alignItems: 'center', textAlign: 'center' }}>
              <Avatar sx={{ bgcolor: 'primary.main' }}>
                <LockOutlinedIcon />
              </Avatar>
              <Typography variant="h5" component="h1">
                {t('login.title')}
              </Typography>
              <Typography variant="body2" sx={{ color: 'text.secondary' }}>
                {t('login.subtitle')}
              </Typography>
            </Stack>
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
            </Stack>
            <Stack
              direction="row"
              sx={{
                justifyContent: 'space-between',
                alignItems: 'center',
                flexWrap: 'wrap',
                gap: 1,
              }}
            >
              <Link component={RouterLink} to="/" variant="body2">
                {t('login.backToSite')}
              </Link>
              <LanguageSelector />
            </Stack>
          </Stack>
        </Paper>
      </Container>
    </Box>
  );
}
