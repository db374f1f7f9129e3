import { PEOPLE_PERMISSION } from '@agency/contracts';
import Button from '@mui/material/Button';
import { Link as RouterLink } from 'react-router-dom';
import { PageHeading } from '../../components/admin/page-heading';
import { RequirePermission } from '../../components/admin/require-permission';
import { useNamespace } from '../../lib/translations';
import { PeopleList } from './components/people-list';
import { PEOPLE_NAMESPACE } from './people-namespace';

/** /admin/people: everyone the product holds, one row per address. */
export function AdminPeoplePage() {
  const { t } = useNamespace(PEOPLE_NAMESPACE);
  return (
    <RequirePermission permission={PEOPLE_PERMISSION}>
      <PageHeading title={t('title')} subtitle={t('subtitle')} />
      <Button component={RouterLink} to="/admin/people/segments" sx={{ mb: 2 }}>
        {t('segments.tab')}
      </Button>
      <PeopleList />
    </RequirePermission>
  );
}
