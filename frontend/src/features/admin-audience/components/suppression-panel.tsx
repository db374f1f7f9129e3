import {
  SUPPRESSION_REASONS,
  type SuppressionQuery,
  type SuppressionReason,
} from '@agency/contracts';
import BlockIcon from '@mui/icons-material/Block';
import DownloadIcon from '@mui/icons-material/Download';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import type { GridColDef } from '@mui/x-data-grid';
import { useCallback, useMemo, useState } from 'react';
import { AdminList } from '../../../components/admin/admin-list';
import { DeleteConfirmDialog } from '../../../components/admin/delete-confirm-dialog';
import { EmptyState } from '../../../components/admin/empty-state';
import { FilterSelect } from '../../../components/admin/filter-select';
import { ListToolbar } from '../../../components/admin/list-toolbar';
import { RecordCard } from '../../../components/admin/record-card';
import { actionsColumn, deleteAction, RowActions } from '../../../components/admin/row-actions';
import { StatusChip } from '../../../components/admin/status-chip';
import { apiErrorMessage } from '../../../lib/api-errors';
import { useAdminCan } from '../../../lib/admin-session';
import { useFormatters } from '../../../lib/use-formatters';
import { useListParams } from '../../../lib/use-list-params';
import { useNamespace } from '../../../lib/translations';
import { useToast } from '../../../lib/use-toast';
import {
  useExportSuppressionsMutation,
  useRemoveSuppressionMutation,
  useSuppressionsQuery,
  type SuppressionRow,
} from '../api/audience-api';
import { AUDIENCE_NAMESPACE } from '../audience-namespace';
import { SuppressionDialog } from './suppression-dialog';

const REASON_COLORS: Record<SuppressionReason, 'error' | 'warning' | 'default' | 'info'> = {
  'hard-bounce': 'error',
  'soft-bounce': 'warning',
  complaint: 'error',
  unsubscribe: 'default',
  staff: 'info',
};

/** What else is known of a suppression: its campaign, the server's words, who added it. */
function detail(row: SuppressionRow): string {
  return [row.campaign?.name, row.detail, row.by?.username].filter(Boolean).join(' · ');
}

/** Every address no campaign or import may mail: search, filter, add, remove, export. */
export function SuppressionPanel() {
  const { t } = useNamespace(AUDIENCE_NAMESPACE);
  const format = useFormatters();
  const toast = useToast();
  const canWrite = useAdminCan('suppressions:write');
  const [adding, setAdding] = useState(false);
  const [removing, setRemoving] = useState<SuppressionRow | null>(null);
  const [removeSuppression] = useRemoveSuppressionMutation();
  const [exportCsv, { isLoading: exporting }] = useExportSuppressionsMutation();
  const list = useListParams<'reason'>({
    sortFields: ['email', 'at'],
    defaultSort: '-at',
    filters: ['reason'],
  });
  const query = useSuppressionsQuery(list.query as Partial<SuppressionQuery>);

  const reasonChip = useCallback(
    (row: SuppressionRow) => (
      <StatusChip
        label={t(`suppression.reasons.${row.reason}`)}
        color={REASON_COLORS[row.reason]}
      />
    ),
    [t],
  );
  const actions = useCallback(
    (row: SuppressionRow) => (
      <RowActions
        actions={[
          deleteAction(t('suppression.remove', { email: row.email }), () => setRemoving(row)),
        ]}
      />
    ),
    [t],
  );

  const columns = useMemo<GridColDef<SuppressionRow>[]>(
    () => [
      { field: 'email', headerName: t('suppression.columns.email'), flex: 1.2, minWidth: 200 },
      {
        field: 'reason',
        headerName: t('suppression.columns.reason'),
        width: 190,
        sortable: false,
        renderCell: ({ row }) => reasonChip(row),
      },
      {
        field: 'source',
        headerName: t('suppression.columns.source'),
        width: 150,
        sortable: false,
        valueGetter: (_value, row) => t(`suppression.sources.${row.source}`),
      },
      {
        field: 'detail',
        headerName: t('suppression.columns.detail'),
        flex: 1,
        minWidth: 180,
        sortable: false,
        valueGetter: (_value, row) => detail(row),
      },
      {
        field: 'at',
        headerName: t('suppression.columns.at'),
        width: 130,
        valueFormatter: (value: string) => format.date(value),
      },
      ...(canWrite ? [actionsColumn(t('suppression.columns.actions'), actions)] : []),
    ],
    [t, format, canWrite, reasonChip, actions],
  );

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

  const addButton = (
    <Button variant="contained" startIcon={<BlockIcon />} onClick={() => setAdding(true)}>
      {t('suppression.add')}
    </Button>
  );

  return (
    <>
      <ListToolbar list={list}>
        <FilterSelect
          label={t('suppression.reasonFilter')}
          value={list.filters.reason}
          onChange={(reason) => list.setFilter('reason', reason)}
          allLabel={t('suppression.allReasons')}
          options={SUPPRESSION_REASONS.map((reason) => ({
            value: reason,
            label: t(`suppression.reasons.${reason}`),
          }))}
          minWidth={190}
        />
        <Button
          variant="outlined"
          startIcon={<DownloadIcon />}
          disabled={exporting}
          onClick={() => void runExport()}
        >
          {t('suppression.export')}
        </Button>
        {canWrite ? addButton : null}
      </ListToolbar>
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
          <RecordCard
            title={row.email}
            badge={reasonChip(row)}
            actions={canWrite ? actions(row) : undefined}
          >
            <Typography variant="body2">
              {t(`suppression.sources.${row.source}`)} · {format.date(row.at)}
            </Typography>
            {detail(row) ? (
              <Typography variant="body2" sx={{ color: 'text.secondary' }}>
                {detail(row)}
              </Typography>
            ) : null}
          </RecordCard>
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
