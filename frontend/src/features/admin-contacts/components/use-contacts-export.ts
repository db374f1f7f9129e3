import type { ContactListQuery } from '@agency/contracts';
import { useListExport, withoutPage } from '../../../components/admin/use-list-export';
import { useNamespace } from '../../../lib/translations';
import { useExportContactsMutation } from '../api/contacts-api';
import { CONTACTS_NAMESPACE } from '../contacts-namespace';

/**
 * The CSV export of the enquiries the list selects: its search, filters and
 * order, not its page. A failure is told in a toast.
 */
export function useContactsExport(query: Partial<ContactListQuery>) {
  const { t } = useNamespace(CONTACTS_NAMESPACE);
  const [exportContacts, { isLoading: exporting }] = useExportContactsMutation();
  const runExport = useListExport(() => exportContacts(withoutPage(query)), t('exportFailed'));
  return { runExport, exporting };
}
