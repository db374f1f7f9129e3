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

export interface AccountCardProps {
  title: string;
  subtitle?: string;
  /** Where the link under the card leads; the sign-in page by default. */
  back?: { to: string; label: string };
  /** The recovery codes need room for two columns. */
  wide?: boolean;
  children: ReactNode;
}

/** The frame of the signed-out pages: sign-in, forgot password, reset password. */
export function AccountCard({ title, subtitle, back, wide = false, children }: AccountCardProps) {
  const { t } = useNamespace(ACCOUNT_NAMESPACE);
  const backLink = back ?? { to: '/admin/login', label: t('reset.backToSignIn') };
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
      <Container maxWidth={wide ? 'sm' : 'xs'}>
        <Paper variant="outlined" sx={{ p: { xs: 3, sm: 4 } }}>
          <Stack spacing={2.5}>
            <Stack spacing={1} sx={{ alignItems: 'center', textAlign: 'center' }}>
              <Avatar sx={{ bgcolor: 'primary.main' }}>
                <LockOutlinedIcon />
              </Avatar>
              <Typography variant="h5" component="h1">
                {title}
              </Typography>
              {subtitle ? (
                <Typography variant="body2" sx={{ color: 'text.secondary' }}>
                  {subtitle}
                </Typography>
              ) : null}
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
              <Link component={RouterLink} to={backLink.to} variant="body2">
                {backLink.label}
              </Link>
              <LanguageSelector />
            </Stack>
          </Stack>
        </Paper>
      </Container>
    </Box>
  );
}
