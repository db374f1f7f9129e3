import LockOutlinedIcon from '@mui/icons-material/LockOutlined';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Container from '@mui/material/Container';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router-dom';

/**
 * Placeholder until the admin API contract exists: the route, lazy loading and
 * layout are in place so the sign-in form can drop in without touching the router.
 */
export function AdminLoginPage() {
  const { t } = useTranslation();

  return (
    <Box component="main" sx={{ minHeight: '100vh', display: 'flex', alignItems: 'center' }}>
      <Container maxWidth="xs">
        <Paper variant="outlined" sx={{ p: 4, textAlign: 'center' }}>
          <Avatar sx={{ bgcolor: 'primary.main', mx: 'auto', mb: 2 }}>
            <LockOutlinedIcon />
          </Avatar>
          <Typography variant="h5" component="h1" gutterBottom>
            {t('admin.login.title')}
          </Typography>
          <Typography variant="body2" sx={{ color: 'text.secondary', mb: 3 }}>
            {t('admin.login.placeholder')}
          </Typography>
          <Button component={RouterLink} to="/">
            {t('notFound.home')}
          </Button>
        </Paper>
      </Container>
    </Box>
  );
}
