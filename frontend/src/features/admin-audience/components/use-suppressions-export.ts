import type { SuppressionReason } from '@agency/contracts';
import { apiErrorMessage } from '../../../lib/api-errors';
import type { ListParams } from '../../../lib/use-list-params';
import { useNamespace } from '../../../lib/translations';
import { useToast } from '../../../lib/use-toast';
import { useExportSuppressionsMutation } from '../api/audience-api';
import { AUDIENCE_NAMESPACE } from '../audience-namespace';

/** The CSV export of the suppressions the search and the reason select; a failure is told in a toast. */
export function useSuppressionsExport(list: ListParams<'reason'>) {
  const { t } = useNamespace(AUDIENCE_NAMESPACE);
  const toast = useToast();
  const [exportCsv, { isLoading: exporting }] = useExportSuppressionsMutation();
  const runExport = async () => {
    try {
      await exportCsv({
        search: list.search || undefined,
        reason: list.filters.reason as SuppressionReason | undefined,
      }).unwrap();
    } catch (error: unknown) {
      toast({
        title: t('suppression.exportFailed'),
        description: apiErrorMessage(error),
        variant: 'destructive',
      });
    }
  };
  return { runExport, exporting };
}
