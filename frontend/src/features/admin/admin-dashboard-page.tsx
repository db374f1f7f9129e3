import DarkModeIcon from '@mui/icons-material/DarkMode';
import LightModeIcon from '@mui/icons-material/LightMode';
import LogoutIcon from '@mui/icons-material/Logout';
import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Container from '@mui/material/Container';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Toolbar from '@mui/material/Toolbar';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate } from 'react-router-dom';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { toggleThemeMode } from '../../app/preferences-slice';
import { useToast } from '../../lib/use-toast';
import { clearAdminSession, readAdminSession } from './admin-session';

/**
 * Placeholder dashboard: the session guard, header (user, theme toggle, sign out)
 * and lazy loading are real; the sections arrive with the admin API.
 */
export function AdminDashboardPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const toast = useToast();
  const dispatch = useAppDispatch();
  const themeMode = useAppSelector((state) => state.preferences.themeMode);
  // Read once per visit; signing out navigates away, so there is nothing to keep in sync.
  const [session] = useState(readAdminSession);

  if (!session) return <Navigate to="/admin" replace />;

  const signOut = () => {
    clearAdminSession();
    toast({ title: t('admin.loggedOutTitle'), description: t('admin.loggedOutDescription') });
    void navigate('/admin');
  };

  const themeLabel = themeMode === 'dark' ? t('admin.theme.light') : t('admin.theme.dark');

  return (
    <Box sx={{ minHeight: '100vh', bgcolor: 'background.default' }}>
      <AppBar position="static" color="default" elevation={0}>
        <Toolbar sx={{ gap: 1 }}>
          <Typography variant="h6" component="p" sx={{ flexGrow: 1, fontWeight: 800 }}>
            {t('brand.name')}
          </Typography>
          <Typography variant="body2" sx={{ display: { xs: 'none', sm: 'block' } }}>
            {t('admin.dashboard.signedInAs', { email: session.user.email })}
          </Typography>
          <Tooltip title={themeLabel}>
            <IconButton aria-label={themeLabel} onClick={() => dispatch(toggleThemeMode())}>
              {themeMode === 'dark' ? <LightModeIcon /> : <DarkModeIcon />}
            </IconButton>
          </Tooltip>
          <Button startIcon={<LogoutIcon />} onClick={signOut}>
            {t('admin.signOut')}
          </Button>
        </Toolbar>
      </AppBar>
      <Container component="main" sx={{ py: 4 }}>
        <Typography variant="h4" component="h1" gutterBottom>
          {t('admin.dashboard.title')}
        </Typography>
        <Paper variant="outlined" sx={{ p: 3 }}>
          <Typography sx={{ color: 'text.secondary' }}>
            {t('admin.dashboard.placeholder')}
          </Typography>
        </Paper>
      </Container>
    </Box>
  );
}
