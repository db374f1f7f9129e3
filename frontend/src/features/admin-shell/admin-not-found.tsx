import SearchOffIcon from '@mui/icons-material/SearchOff';
import Button from '@mui/material/Button';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router-dom';
import { EmptyState } from '../../components/admin/empty-state';
import { ADMIN_PATHS } from '../../lib/admin-paths';
import { useNamespace } from '../../lib/translations';
import { SHELL_NAMESPACE } from './shell-namespace';

/** An admin address that is no section: the 404 text, inside the admin frame. */
export function AdminNotFound() {
  const { t } = useTranslation();
  const { t: tShell } = useNamespace(SHELL_NAMESPACE);
  return (
    <EmptyState
      icon={<SearchOffIcon />}
      title={t('notFound.title')}
      titleComponent="h1"
      description={t('notFound.description')}
      action={
        <Button component={RouterLink} to={ADMIN_PATHS.dashboard} variant="contained">
          {tShell('backToDashboard')}
        </Button>
      }
    />
  );
}
