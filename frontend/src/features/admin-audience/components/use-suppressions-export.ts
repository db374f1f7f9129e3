import type { SuppressionReason } from '@agency/contracts';
import { useListExport } from '../../../components/admin/use-list-export';
import type { ListParams } from '../../../lib/use-list-params';
import { useNamespace } from '../../../lib/translations';
import { useExportSuppressionsMutation } from '../api/audience-api';
import { AUDIENCE_NAMESPACE } from '../audience-namespace';

/** The CSV export of the suppressions the search and the reason select; a failure is told in a toast. */
export function useSuppressionsExport(list: ListParams<'reason'>) {
  const { t } = useNamespace(AUDIENCE_NAMESPACE);
  const [exportCsv, { isLoading: exporting }] = useExportSuppressionsMutation();
  const runExport = useListExport(
    () =>
      exportCsv({
        search: list.search || undefined,
        reason: list.filters.reason as SuppressionReason | undefined,
      }),
    t('suppression.exportFailed'),
  );
  return { runExport, exporting };
}
