import type { SuppressionQuery } from '@agency/contracts';
import BlockIcon from '@mui/icons-material/Block';
import Button from '@mui/material/Button';
import { useCallback, useMemo, useState } from 'react';
import { AdminList } from '../../../components/admin/admin-list';
import { DeleteConfirmDialog } from '../../../components/admin/delete-confirm-dialog';
import { EmptyState } from '../../../components/admin/empty-state';
import { useAdminCan } from '../../../lib/admin-session';
import { useFormatters } from '../../../lib/use-formatters';
import { useListParams } from '../../../lib/use-list-params';
import { useNamespace } from '../../../lib/translations';
import {
  useRemoveSuppressionMutation,
  useSuppressionsQuery,
  type SuppressionRow,
} from '../api/audience-api';
import { AUDIENCE_NAMESPACE } from '../audience-namespace';
import { SuppressionCard } from './suppression-card';
import { suppressionActions, suppressionColumns } from './suppression-columns';
import { SuppressionDialog } from './suppression-dialog';
import { SuppressionToolbar } from './suppression-toolbar';

/** Every address no campaign or import may mail: search, filter, add, remove, export. */
export function SuppressionPanel() {
  const { t } = useNamespace(AUDIENCE_NAMESPACE);
  const format = useFormatters();
  const canWrite = useAdminCan('suppressions:write');
  const [adding, setAdding] = useState(false);
  const [removing, setRemoving] = useState<SuppressionRow | null>(null);
  const [removeSuppression] = useRemoveSuppressionMutation();
  const list = useListParams<'reason'>({
    sortFields: ['email', 'at'],
    defaultSort: '-at',
    filters: ['reason'],
  });
  const query = useSuppressionsQuery(list.query as Partial<SuppressionQuery>);
  const actions = useCallback(
    (row: SuppressionRow) => suppressionActions(row, t, setRemoving),
    [t],
  );
  // Columns rebuilt on every render would reset the grid: only their inputs renew them.
  const columns = useMemo(
    () => suppressionColumns(t, format, canWrite ? actions : undefined),
    [t, format, canWrite, actions],
  );
  const addButton = (
    <Button variant="contained" startIcon={<BlockIcon />} onClick={() => setAdding(true)}>
      {t('suppression.add')}
    </Button>
  );

  return (
    <>
      <SuppressionToolbar list={list} addButton={canWrite ? addButton : null} />
      <AdminList
        label={t('suppression.tableLabel')}
        query={query}
        list={list}
        empty={
          <EmptyState
            icon={<BlockIcon />}
            title={t('suppression.empty')}
            description={t('suppression.emptyHint')}
            action={canWrite ? addButton : undefined}
          />
        }
        columns={columns}
        renderCard={(row) => (
          <SuppressionCard row={row} actions={canWrite ? actions(row) : undefined} />
        )}
      />
      {adding ? <SuppressionDialog onClose={() => setAdding(false)} /> : null}
      <DeleteConfirmDialog
        item={removing}
        title={(item) => t('suppression.confirmRemove.title', { email: item.email })}
        description={t('suppression.confirmRemove.description')}
        confirmLabel={t('suppression.confirmRemove.confirm')}
        remove={removeSuppression}
        deleted={t('suppression.toasts.removed')}
        failed={{
          title: t('suppression.toasts.errorTitle'),
          fallback: t('suppression.toasts.removeFailed'),
        }}
        onClose={() => setRemoving(null)}
      />
    </>
  );
}
