import {
  CAMPAIGN_SORT_FIELDS,
  CAMPAIGN_STATUSES,
  type CampaignDto,
  type CampaignListQuery,
  type CampaignStatus,
} from '@agency/contracts';
import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import EmailIcon from '@mui/icons-material/Email';
import SendIcon from '@mui/icons-material/Send';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardActions from '@mui/material/CardActions';
import CardContent from '@mui/material/CardContent';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { GridColDef } from '@mui/x-data-grid';
import { useMemo, useState } from 'react';
import { DeleteConfirmDialog } from '../../../components/admin/delete-confirm-dialog';
import { EmptyState } from '../../../components/admin/empty-state';
import { FilterSelect } from '../../../components/admin/filter-select';
import { SearchField } from '../../../components/admin/search-field';
import { StatusChip } from '../../../components/admin/status-chip';
import { AdminList } from '../../../components/admin/admin-list';
import { useAdminCan } from '../../../lib/admin-session';
import { apiErrorMessage } from '../../../lib/api-errors';
import { useFormatters } from '../../../lib/use-formatters';
import { useListParams } from '../../../lib/use-list-params';
import { useNamespace } from '../../../lib/translations';
import { useToast } from '../../../lib/use-toast';
import {
  useCampaignListQuery,
  useDeleteCampaignMutation,
  useSendCampaignMutation,
} from '../api/campaigns-api';
import { CAMPAIGNS_NAMESPACE } from '../campaigns-namespace';
import { isInProgress } from '../hooks/use-campaign-progress';
import { CampaignDelivery } from './campaign-delivery';
import { CampaignDialog } from './campaign-dialog';
import { SendConfirmDialog } from './send-confirm-dialog';

const STATUS_COLORS: Record<CampaignStatus, 'default' | 'info' | 'warning' | 'success' | 'error'> =
  {
    draft: 'default',
    queued: 'info',
    sending: 'info',
    paused: 'warning',
    sent: 'success',
    failed: 'error',
    cancelled: 'default',
  };

type Editing = { campaign?: CampaignDto } | null;

/**
 * The Mail Manager's list: status chips, delivery counts and live progress,
 * the campaign modal, and Send (drafts only) behind a confirmation.
 */
export function CampaignManager() {
  const { t } = useNamespace(CAMPAIGNS_NAMESPACE);
  const format = useFormatters();
  const toast = useToast();
  const canWrite = useAdminCan('campaigns:write');
  const canSend = useAdminCan('campaigns:send');
  const list = useListParams<'status'>({
    sortFields: CAMPAIGN_SORT_FIELDS,
    defaultSort: '-createdAt',
    filters: ['status'],
  });
  const { data, isLoading, isFetching, isError, refetch } = useCampaignListQuery(
    list.query as Partial<CampaignListQuery>,
  );
  const [editing, setEditing] = useState<Editing>(null);
  const [sending, setSending] = useState<CampaignDto | null>(null);
  const [deleting, setDeleting] = useState<CampaignDto | null>(null);
  const [sendCampaign, { isLoading: sendBusy }] = useSendCampaignMutation();
  const [deleteCampaign] = useDeleteCampaignMutation();

  const confirmSend = async () => {
    if (!sending) return;
    try {
      await sendCampaign(sending.id).unwrap();
      toast({
        title: t('toasts.sent'),
        description: t('toasts.sentDescription'),
        variant: 'success',
      });
    } catch (error: unknown) {
      toast({
        title: t('toasts.sendFailed'),
        description: apiErrorMessage(error),
        variant: 'destructive',
      });
    }
    setSending(null);
  };

  const statusChip = (campaign: CampaignDto) => (
    <StatusChip
      label={t(`status.${campaign.status}`)}
      color={STATUS_COLORS[campaign.status]}
      highlighted={campaign.status !== 'draft'}
    />
  );

  const actions = (campaign: CampaignDto) => {
    const draft = campaign.status === 'draft';
    return (
      <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center' }}>
        {/* Send exists only on drafts (spec 4), for roles that may send. */}
        {draft && canSend ? (
          <Button
            size="small"
            variant="contained"
            startIcon={<SendIcon />}
            aria-label={t('sendName', { name: campaign.name })}
            onClick={() => setSending(campaign)}
          >
            {t('send')}
          </Button>
        ) : null}
        {draft && canWrite ? (
          <IconButton
            size="small"
            aria-label={t('edit', { name: campaign.name })}
            onClick={() => setEditing({ campaign })}
          >
            <EditIcon fontSize="small" />
          </IconButton>
        ) : null}
        {canWrite && !isInProgress(campaign.status) ? (
          <IconButton
            size="small"
            aria-label={t('delete', { name: campaign.name })}
            onClick={() => setDeleting(campaign)}
          >
            <DeleteIcon fontSize="small" />
          </IconButton>
        ) : null}
      </Stack>
    );
  };

  const columns = useMemo<GridColDef<CampaignDto>[]>(
    () => [
      { field: 'name', headerName: t('columns.name'), flex: 1, minWidth: 150 },
      {
        field: 'subject',
        headerName: t('columns.subject'),
        flex: 1.2,
        minWidth: 120,
        sortable: false,
      },
      {
        field: 'recipientType',
        headerName: t('columns.recipients'),
        width: 110,
        sortable: false,
        valueGetter: (_value, row) => t(`recipientsShort.${row.recipientType}`),
      },
      {
        field: 'status',
        headerName: t('columns.status'),
        width: 110,
        renderCell: ({ row }) => statusChip(row),
      },
      {
        field: 'delivery',
        headerName: t('columns.delivery'),
        flex: 1.2,
        minWidth: 180,
        sortable: false,
        renderCell: ({ row }) => <CampaignDelivery campaign={row} />,
      },
      {
        field: 'createdAt',
        headerName: t('columns.created'),
        width: 120,
        valueFormatter: (value: string) => format.date(value),
      },
      {
        field: 'actions',
        headerName: t('columns.actions'),
        width: 160,
        sortable: false,
        renderCell: ({ row }) => actions(row),
      },
    ],
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the helpers read only these
    [t, format, canWrite, canSend],
  );

  const addButton = canWrite ? (
    <Button variant="contained" startIcon={<AddIcon />} onClick={() => setEditing({})}>
      {t('add')}
    </Button>
  ) : null;

  const body = (
    <AdminList
      label={t('tableLabel')}
      data={data}
      isLoading={isLoading}
      isFetching={isFetching}
      isError={isError}
      onRetry={() => void refetch()}
      list={list}
      empty={
        <EmptyState
          icon={<EmailIcon />}
          title={t('empty')}
          description={t('emptyHint')}
          action={addButton}
        />
      }
      columns={columns}
      renderCard={(campaign) => (
        <Card variant="outlined">
          <CardContent sx={{ pb: 1 }}>
            <Stack direction="row" sx={{ justifyContent: 'space-between', gap: 1 }}>
              <Typography sx={{ fontWeight: 700 }}>{campaign.name}</Typography>
              {statusChip(campaign)}
            </Stack>
            <Typography variant="body2" sx={{ color: 'text.secondary' }}>
              {campaign.subject}
            </Typography>
            <Typography variant="body2" sx={{ mb: 1 }}>
              {t(`recipientsShort.${campaign.recipientType}`)} · {format.date(campaign.createdAt)}
            </Typography>
            <CampaignDelivery campaign={campaign} />
          </CardContent>
          <CardActions>{actions(campaign)}</CardActions>
        </Card>
      )}
    />
  );

  return (
    <>
      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        spacing={1.5}
        sx={{ mb: 2, alignItems: { sm: 'center' } }}
      >
        <SearchField value={list.search} onSearch={list.setSearch} />
        <FilterSelect
          label={t('statusFilter')}
          value={list.filters.status}
          onChange={(status) => list.setFilter('status', status)}
          allLabel={t('allStatuses')}
          options={CAMPAIGN_STATUSES.map((status) => ({
            value: status,
            label: t(`status.${status}`),
          }))}
        />
        {addButton ? <Stack sx={{ marginInlineStart: { sm: 'auto' } }}>{addButton}</Stack> : null}
      </Stack>
      {body}
      {editing ? (
        <CampaignDialog campaign={editing.campaign} onClose={() => setEditing(null)} />
      ) : null}
      {sending ? (
        <SendConfirmDialog
          campaign={sending}
          busy={sendBusy}
          onConfirm={() => void confirmSend()}
          onClose={() => setSending(null)}
        />
      ) : null}
      <DeleteConfirmDialog
        item={deleting}
        title={(item) => t('confirmDelete.title', { name: item.name })}
        description={t('confirmDelete.description')}
        confirmLabel={t('confirmDelete.confirm')}
        remove={deleteCampaign}
        deleted={t('toasts.deleted')}
        failed={{ title: t('toasts.deleteFailed') }}
        onClose={() => setDeleting(null)}
      />
    </>
  );
}
