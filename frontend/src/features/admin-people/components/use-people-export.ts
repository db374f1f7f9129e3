import type { PeopleListQuery } from '@agency/contracts';
import { ADMIN_COMMON_NAMESPACE } from '../../../components/admin/admin-common-namespace';
import { apiErrorMessage } from '../../../lib/api-errors';
import { useNamespace } from '../../../lib/translations';
import { useToast } from '../../../lib/use-toast';
import { useExportPeopleMutation } from '../api/people-api';
import { PEOPLE_NAMESPACE } from '../people-namespace';

/**
 * The CSV export of the people the list selects: its search, filters and
 * order, not its page. A failure is told in a toast.
 */
export function usePeopleExport(query: Partial<PeopleListQuery>) {
  const { t } = useNamespace(PEOPLE_NAMESPACE);
  const { t: tCommon } = useNamespace(ADMIN_COMMON_NAMESPACE);
  const toast = useToast();
  const [exportPeople, { isLoading: exporting }] = useExportPeopleMutation();

  const runExport = async () => {
    const filters = { ...query };
    delete filters.after;
    delete filters.before;
    delete filters.pageSize;
    try {
      await exportPeople(filters).unwrap();
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
