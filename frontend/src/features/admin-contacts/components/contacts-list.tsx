import { CONTACT_SORT_FIELDS, type ContactDto, type ContactListQuery } from '@agency/contracts';
import InboxIcon from '@mui/icons-material/Inbox';
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router-dom';
import { ADMIN_COMMON_NAMESPACE } from '../../../components/admin/admin-common-namespace';
import { AdminList } from '../../../components/admin/admin-list';
import { DeleteConfirmDialog } from '../../../components/admin/delete-confirm-dialog';
import { EmptyState } from '../../../components/admin/empty-state';
import { adminContactPath } from '../../../lib/admin-paths';
import { useAdminCan } from '../../../lib/admin-session';
import { useFormatters } from '../../../lib/use-formatters';
import { useListParams } from '../../../lib/use-list-params';
import { useNamespace } from '../../../lib/translations';
import { useContactListQuery, useDeleteContactMutation } from '../api/contacts-api';
import { CONTACTS_NAMESPACE } from '../contacts-namespace';
import { ContactCard } from './contact-cards';
import { contactColumns } from './contact-columns';
import { ContactsToolbar } from './contacts-toolbar';

/**
 * The enquiries: a table (cards on a phone) paged by position, sortable by
 * each of its columns, searched by the start of a name or address, a
 * status filter, deletion after a confirmation, and the CSV export of what
 * the filters select.
 */
export function ContactsList() {
  const { t } = useNamespace(CONTACTS_NAMESPACE);
  const { t: tCommon } = useNamespace(ADMIN_COMMON_NAMESPACE);
  const { t: tShell } = useTranslation();
  const format = useFormatters();
  const navigate = useNavigate();
  const { search: addressQuery } = useLocation();
  const canWrite = useAdminCan('contacts:write');
  const list = useListParams<'status'>({
    sortFields: CONTACT_SORT_FIELDS,
    defaultSort: '-createdAt',
    filters: ['status'],
    keyset: true,
  });
  const contacts = useContactListQuery(list.query as Partial<ContactListQuery>);
  const [deleteContact] = useDeleteContactMutation();
  const [toDelete, setToDelete] = useState<ContactDto | null>(null);

  // Rebuilding the columns on every render would reset the grid: `open` changes only with the address.
  const open = useCallback(
    (contact: ContactDto) => void navigate(`${adminContactPath(contact.id)}${addressQuery}`),
    [navigate, addressQuery],
  );
  const columns = useMemo(
    () =>
      contactColumns({ t, tCommon, tShell, format, canWrite, onView: open, onDelete: setToDelete }),
    [t, tCommon, tShell, format, open, canWrite],
  );

  return (
    <>
      <ContactsToolbar list={list} />
      <AdminList
        label={t('tableLabel')}
        query={contacts}
        list={list}
        empty={<EmptyState icon={<InboxIcon />} title={t('empty')} description={t('emptyHint')} />}
        columns={columns}
        renderCard={(contact) => (
          <ContactCard contact={contact} onDelete={canWrite ? setToDelete : undefined} />
        )}
      />
      <DeleteConfirmDialog
        item={toDelete}
        title={(contact) => t('deleteTitle', { name: `${contact.firstName} ${contact.lastName}` })}
        description={t('deleteDescription')}
        confirmLabel={tCommon('actions.delete')}
        remove={deleteContact}
        deleted={t('deleted')}
        failed={{ title: t('deleteFailed'), fallback: tCommon('errors.generic') }}
        onClose={() => setToDelete(null)}
      />
    </>
  );
}
