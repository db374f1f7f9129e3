import type { ContactListQuery } from '@agency/contracts';
import { ADMIN_COMMON_NAMESPACE } from '../../../components/admin/admin-common-namespace';
import { apiErrorMessage } from '../../../lib/api-errors';
import { useNamespace } from '../../../lib/translations';
import { useToast } from '../../../lib/use-toast';
import { useExportContactsMutation } from '../api/contacts-api';
import { CONTACTS_NAMESPACE } from '../contacts-namespace';

/**
 * The CSV export of the enquiries the list selects: its search, filters and
 * order, not its page. A failure is told in a toast.
 */
export function useContactsExport(query: Partial<ContactListQuery>) {
  const { t } = useNamespace(CONTACTS_NAMESPACE);
  const { t: tCommon } = useNamespace(ADMIN_COMMON_NAMESPACE);
  const toast = useToast();
  const [exportContacts, { isLoading: exporting }] = useExportContactsMutation();

  const runExport = async () => {
    const filters = { ...query };
    delete filters.after;
    delete filters.before;
    delete filters.pageSize;
    try {
      await exportContacts(filters).unwrap();
    } catch (error: unknown) {
      toast({
        title: t('exportFailed'),
        description: apiErrorMessage(error) ?? tCommon('errors.generic'),
        variant: 'destructive',
      });
    }
  };

  return { runExport, exporting };
}
