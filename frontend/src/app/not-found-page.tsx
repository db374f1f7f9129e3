import Button from '@mui/material/Button';
import Container from '@mui/material/Container';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router-dom';

export function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <Container maxWidth="sm" sx={{ py: { xs: 10, md: 16 }, textAlign: 'center' }}>
      <Typography variant="h1" component="p" color="primary" sx={{ fontSize: '6rem' }} aria-hidden>
        404
      </Typography>
      <Typography variant="h4" component="h1" gutterBottom>
        {t('notFound.title')}
      </Typography>
      <Typography sx={{ color: 'text.secondary', mb: 4 }}>{t('notFound.description')}</Typography>
      <Button variant="contained" component={RouterLink} to="/">
        {t('notFound.home')}
      </Button>
    </Container>
  );
}
