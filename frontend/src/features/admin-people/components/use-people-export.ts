import type { PeopleListQuery } from '@agency/contracts';
import { useListExport, withoutPage } from '../../../components/admin/use-list-export';
import { useNamespace } from '../../../lib/translations';
import { useExportPeopleMutation } from '../api/people-api';
import { PEOPLE_NAMESPACE } from '../people-namespace';

/**
 * The CSV export of the people the list selects: its search, filters and
 * order, not its page. A failure is told in a toast.
 */
export function usePeopleExport(query: Partial<PeopleListQuery>) {
  const { t } = useNamespace(PEOPLE_NAMESPACE);
  const [exportPeople, { isLoading: exporting }] = useExportPeopleMutation();
  const runExport = useListExport(() => exportPeople(withoutPage(query)), t('exportFailed'));
  return { runExport, exporting };
}
