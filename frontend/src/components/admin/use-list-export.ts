import { apiErrorMessage } from '../../lib/api-errors';
import { useNamespace } from '../../lib/translations';
import { useToast } from '../../lib/use-toast';
import { ADMIN_COMMON_NAMESPACE } from './admin-common-namespace';

/** A keyset list's query as its export takes it: what it selects and its order, not its page. */
export type ExportQuery<Query> = Omit<Query, 'after' | 'before' | 'pageSize'>;

export function withoutPage<
  Query extends { after?: unknown; before?: unknown; pageSize?: unknown },
>(query: Query): ExportQuery<Query> {
  const filters = { ...query };
  delete filters.after;
  delete filters.before;
  delete filters.pageSize;
  return filters;
}

/**
 * Runs a list's CSV export (an RTK Query download mutation started by
 * `start`); a failure is told in a toast titled `failedTitle`, with the API's
 * reason or the generic one.
 */
export function useListExport(
  start: () => { unwrap: () => Promise<unknown> },
  failedTitle: string,
): () => Promise<void> {
  const { t } = useNamespace(ADMIN_COMMON_NAMESPACE);
  const toast = useToast();
  return async () => {
    try {
      await start().unwrap();
    } catch (error: unknown) {
      toast({
        title: failedTitle,
        description: apiErrorMessage(error) ?? t('errors.generic'),
        variant: 'destructive',
      });
    }
  };
}
