import { CONTACT_STATUSES, type ContactListQuery } from '@agency/contracts';
import DownloadIcon from '@mui/icons-material/Download';
import Button from '@mui/material/Button';
import { ADMIN_COMMON_NAMESPACE } from '../../../components/admin/admin-common-namespace';
import { FilterSelect } from '../../../components/admin/filter-select';
import { ListToolbar } from '../../../components/admin/list-toolbar';
import { useAdminCan } from '../../../lib/admin-session';
import type { ListParams } from '../../../lib/use-list-params';
import { useNamespace } from '../../../lib/translations';
import { CONTACTS_NAMESPACE } from '../contacts-namespace';
import { useContactsExport } from './use-contacts-export';

/** Above the enquiries: the search, the status filter and, for a role that may, the CSV export. */
export function ContactsToolbar({ list }: { list: ListParams<'status'> }) {
  const { t } = useNamespace(CONTACTS_NAMESPACE);
  const { t: tCommon } = useNamespace(ADMIN_COMMON_NAMESPACE);
  const canExport = useAdminCan('contacts:export');
  const { runExport, exporting } = useContactsExport(list.query as Partial<ContactListQuery>);
  return (
    <ListToolbar list={list} searchLabel={t('search')} searchHint={t('searchHint')}>
      <FilterSelect
        label={t('statusFilter')}
        value={list.filters.status}
        onChange={(status) => list.setFilter('status', status)}
        allLabel={t('allStatuses')}
        options={CONTACT_STATUSES.map((status) => ({
          value: status,
          label: tCommon(`contactStatus.${status}`, { defaultValue: status }),
        }))}
        minWidth={170}
      />
      {canExport ? (
        <Button
          variant="outlined"
          startIcon={<DownloadIcon />}
          onClick={() => void runExport()}
          disabled={exporting}
          sx={{ marginInlineStart: { sm: 'auto' } }}
        >
          {exporting ? t('exporting') : t('export')}
        </Button>
      ) : null}
    </ListToolbar>
  );
}
