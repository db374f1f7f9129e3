import type { MailingListDto, MailingListQuery } from '@agency/contracts';
import { apiErrorMessage } from '../../../lib/api-errors';
import { useListParams } from '../../../lib/use-list-params';
import { useNamespace } from '../../../lib/translations';
import { useToast } from '../../../lib/use-toast';
import { useDeleteMailingListMutation, useMailingListsQuery } from '../api/audience-api';
import { AUDIENCE_NAMESPACE } from '../audience-namespace';

/** How often the lists are read again while one is being deleted, for its progress. */
export const DELETION_POLL_MS = 2000;

/** The page of mailing lists the address asks for, kept fresh while one is deleted, and its deletion. */
export function useMailingLists() {
  const { t } = useNamespace(AUDIENCE_NAMESPACE);
  const toast = useToast();
  const [deleteList] = useDeleteMailingListMutation();
  const list = useListParams({
    sortFields: ['name', 'createdAt', 'memberCount'],
    defaultSort: 'name',
  });
  const listQuery = list.query as Partial<MailingListQuery>;
  const query = useMailingListsQuery(listQuery);
  // While a list on the page is being deleted, a second subscription to the same
  // page reads it again every few seconds: its progress moves, and it leaves
  // the page once the worker has removed it.
  const anyDeleting = query.data?.items.some((row) => row.state === 'deleting') ?? false;
  useMailingListsQuery(listQuery, { pollingInterval: DELETION_POLL_MS, skip: !anyDeleting });

  /**
   * The API only marks the list (202) and the worker removes its members, so
   * the toast says the deletion started; the row's progress is what to watch.
   */
  const removeList = async (row: MailingListDto) => {
    try {
      await deleteList(row.id).unwrap();
      toast({ title: t('toasts.deleteStarted', { name: row.name }), variant: 'success' });
    } catch (error: unknown) {
      toast({
        title: t('toasts.errorTitle'),
        description: apiErrorMessage(error) ?? t('toasts.deleteFailed'),
        variant: 'destructive',
      });
    }
  };

  return { list, query, removeList };
}
