import LockOutlinedIcon from '@mui/icons-material/LockOutlined';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Container from '@mui/material/Container';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { LanguageSelector } from '../../../components/language-selector';
import { useNamespace } from '../../../lib/translations';
import { ACCOUNT_NAMESPACE } from '../account-namespace';

/** The frame of the signed-out account pages: forgot password, reset password. */
export function AccountCard({ title, children }: { title: string; children: ReactNode }) {
  const { t } = useNamespace(ACCOUNT_NAMESPACE);
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
          <Stack spacing={2.5}>
            <Stack spacing={1} sx={{ alignItems: 'center', textAlign: 'center' }}>
              <Avatar sx={{ bgcolor: 'primary.main' }}>
                <LockOutlinedIcon />
              </Avatar>
              <Typography variant="h5" component="h1">
                {title}
              </Typography>
            </Stack>
            {children}
            <Stack
              direction="row"
              sx={{
                justifyContent: 'space-between',
                alignItems: 'center',
                flexWrap: 'wrap',
                gap: 1,
              }}
            >
              <Link component={RouterLink} to="/admin/login" variant="body2">
                {t('reset.backToSignIn')}
              </Link>
              <LanguageSelector />
            </Stack>
          </Stack>
        </Paper>
      </Container>
    </Box>
  );
}
