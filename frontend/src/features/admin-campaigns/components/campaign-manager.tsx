import {
  CAMPAIGN_SORT_FIELDS,
  CAMPAIGN_STATUSES,
  type CampaignDto,
  type CampaignListQuery,
  type CampaignStatus,
} from '@agency/contracts';
import AddIcon from '@mui/icons-material/Add';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import EmailIcon from '@mui/icons-material/Email';
import ForwardToInboxIcon from '@mui/icons-material/ForwardToInbox';
import GroupsIcon from '@mui/icons-material/Groups';
import PauseIcon from '@mui/icons-material/Pause';
import PlayArrowIcon from '@mui/icons-material/PlayArrow';
import ReplayIcon from '@mui/icons-material/Replay';
import ScheduleIcon from '@mui/icons-material/Schedule';
import SendIcon from '@mui/icons-material/Send';
import StopCircleIcon from '@mui/icons-material/StopCircle';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { GridColDef } from '@mui/x-data-grid';
import { useCallback, useMemo, useState } from 'react';
import { ConfirmDialog } from '../../../components/admin/confirm-dialog';
import { DeleteConfirmDialog } from '../../../components/admin/delete-confirm-dialog';
import { EmptyState } from '../../../components/admin/empty-state';
import { FilterSelect } from '../../../components/admin/filter-select';
import { StatusChip } from '../../../components/admin/status-chip';
import { AdminList } from '../../../components/admin/admin-list';
import { ListToolbar } from '../../../components/admin/list-toolbar';
import { RecordCard } from '../../../components/admin/record-card';
import {
  actionsColumn,
  deleteAction,
  editAction,
  RowActions,
} from '../../../components/admin/row-actions';
import { useAdminCan } from '../../../lib/admin-session';
import { apiErrorMessage } from '../../../lib/api-errors';
import { useFormatters } from '../../../lib/use-formatters';
import { useListParams } from '../../../lib/use-list-params';
import { useNamespace } from '../../../lib/translations';
import { useToast } from '../../../lib/use-toast';
import {
  useCampaignListQuery,
  useDeleteCampaignMutation,
  useDuplicateCampaignMutation,
  useSendCampaignMutation,
} from '../api/campaigns-api';
import { CAMPAIGNS_NAMESPACE } from '../campaigns-namespace';
import { useCampaignControl } from '../hooks/use-campaign-control';
import { isInProgress } from '../hooks/use-campaign-progress';
import { CampaignDelivery } from './campaign-delivery';
import { CampaignDialog } from './campaign-dialog';
import { CampaignRecipientsDialog } from './campaign-recipients-dialog';
import { ScheduleDialogLoader } from './schedule-dialog';
import { SendConfirmDialog } from './send-confirm-dialog';
import { TestSendDialog } from './test-send-dialog';

const STATUS_COLORS: Record<CampaignStatus, 'default' | 'info' | 'warning' | 'success' | 'error'> =
  {
    draft: 'default',
    scheduled: 'info',
    queued: 'info',
    sending: 'info',
    paused: 'warning',
    sent: 'success',
    failed: 'error',
    cancelled: 'default',
  };

/** The one dialog open over the list, if any, and the campaign it is about. */
type OpenDialog =
  | { kind: 'edit'; campaign?: CampaignDto }
  | { kind: 'send' | 'delete' | 'test' | 'schedule' | 'recipients'; campaign: CampaignDto }
  /** The controls that cannot be taken back, asked about first. */
  | { kind: 'confirm'; campaign: CampaignDto; control: 'cancel' | 'resend-failed' };

/** Resend to the failed exists on a finished campaign that has failures. */
function canResend(campaign: CampaignDto): boolean {
  return (campaign.status === 'sent' || campaign.status === 'failed') && campaign.failedCount > 0;
}

/**
 * The Mail Manager's list: status chips, delivery counts and live progress,
 * the campaign modal, Send (drafts only) behind a confirmation, the sending
 * controls (pause, resume, cancel, resend to the failed, a test) for the
 * roles that may send, and each campaign's recipients.
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
  const query = useCampaignListQuery(list.query as Partial<CampaignListQuery>);
  const [dialog, setDialog] = useState<OpenDialog | null>(null);
  const close = () => setDialog(null);
  const [sendCampaign, { isLoading: sendBusy }] = useSendCampaignMutation();
  const [deleteCampaign] = useDeleteCampaignMutation();
  const [duplicateCampaign, { isLoading: duplicating }] = useDuplicateCampaignMutation();
  const { run: runControl, busy: controlBusy } = useCampaignControl();
  const confirming = dialog?.kind === 'confirm' ? dialog : null;

  const confirmControl = async () => {
    if (!confirming) return;
    await runControl(confirming.campaign, confirming.control);
    close();
  };

  const confirmSend = async (campaign: CampaignDto) => {
    try {
      await sendCampaign(campaign.id).unwrap();
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
    close();
  };

  /** The copy opens in the editor at once: what one copies a campaign for is to change it. */
  const duplicate = useCallback(
    async (campaign: CampaignDto) => {
      try {
        const copy = await duplicateCampaign(campaign.id).unwrap();
        toast({
          title: t('toasts.duplicated', { name: copy.name }),
          description: t('toasts.duplicatedDescription'),
          variant: 'success',
        });
        setDialog({ kind: 'edit', campaign: copy });
      } catch (error: unknown) {
        toast({
          title: t('toasts.duplicateFailed'),
          description: apiErrorMessage(error),
          variant: 'destructive',
        });
      }
    },
    [duplicateCampaign, t, toast],
  );

  const statusChip = useCallback(
    (campaign: CampaignDto) => (
      <StatusChip
        label={t(`status.${campaign.status}`)}
        color={STATUS_COLORS[campaign.status]}
        highlighted={campaign.status !== 'draft'}
      />
    ),
    [t],
  );

  const actions = useCallback(
    (campaign: CampaignDto) => {
      const { name, status } = campaign;
      const draft = status === 'draft';
      const running = status === 'queued' || status === 'sending';
      return (
        <RowActions
          actions={[
            canSend &&
              running && {
                label: t('controls.pause.action', { name }),
                icon: <PauseIcon fontSize="small" />,
                onClick: () => void runControl(campaign, 'pause'),
                disabled: controlBusy,
              },
            canSend &&
              status === 'paused' && {
                label: t('controls.resume.action', { name }),
                icon: <PlayArrowIcon fontSize="small" />,
                onClick: () => void runControl(campaign, 'resume'),
                disabled: controlBusy,
              },
            canSend &&
              isInProgress(status) && {
                label: t('controls.cancel.action', { name }),
                icon: <StopCircleIcon fontSize="small" />,
                onClick: () => setDialog({ kind: 'confirm', campaign, control: 'cancel' }),
              },
            canSend &&
              canResend(campaign) && {
                label: t('controls.resend-failed.action', { name }),
                icon: <ReplayIcon fontSize="small" />,
                onClick: () => setDialog({ kind: 'confirm', campaign, control: 'resend-failed' }),
              },
            canSend && {
              label: t('testSend.action', { name }),
              icon: <ForwardToInboxIcon fontSize="small" />,
              onClick: () => setDialog({ kind: 'test', campaign }),
            },
            canSend &&
              (draft || status === 'scheduled') && {
                label: t('schedule.action', { name }),
                icon: <ScheduleIcon fontSize="small" />,
                onClick: () => setDialog({ kind: 'schedule', campaign }),
              },
            !draft &&
              status !== 'scheduled' && {
                label: t('ledger.action', { name }),
                icon: <GroupsIcon fontSize="small" />,
                onClick: () => setDialog({ kind: 'recipients', campaign }),
              },
            draft &&
              canWrite &&
              editAction(t('edit', { name }), () => setDialog({ kind: 'edit', campaign })),
            canWrite && {
              label: t('duplicate', { name }),
              icon: <ContentCopyIcon fontSize="small" />,
              onClick: () => void duplicate(campaign),
              disabled: duplicating,
            },
            canWrite &&
              !isInProgress(status) &&
              deleteAction(t('delete', { name }), () => setDialog({ kind: 'delete', campaign })),
          ]}
        >
          {/* Send exists only on drafts, for roles that may send. */}
          {draft && canSend ? (
            <Button
              size="small"
              variant="contained"
              startIcon={<SendIcon />}
              aria-label={t('sendName', { name })}
              onClick={() => setDialog({ kind: 'send', campaign })}
            >
              {t('send')}
            </Button>
          ) : null}
        </RowActions>
      );
    },
    [t, canSend, canWrite, runControl, controlBusy, duplicate, duplicating],
  );

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
      actionsColumn(t('columns.actions'), actions, 264),
    ],
    [t, format, statusChip, actions],
  );

  const addButton = canWrite ? (
    <Button variant="contained" startIcon={<AddIcon />} onClick={() => setDialog({ kind: 'edit' })}>
      {t('add')}
    </Button>
  ) : null;

  const body = (
    <AdminList
      label={t('tableLabel')}
      query={query}
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
      // A send's progress takes two or three lines in a narrow Delivery column.
      autoRowHeight
      renderCard={(campaign) => (
        <RecordCard title={campaign.name} badge={statusChip(campaign)} actions={actions(campaign)}>
          <Typography variant="body2" sx={{ color: 'text.secondary' }}>
            {campaign.subject}
          </Typography>
          <Typography variant="body2" sx={{ mb: 1 }}>
            {t(`recipientsShort.${campaign.recipientType}`)} · {format.date(campaign.createdAt)}
          </Typography>
          <CampaignDelivery campaign={campaign} />
        </RecordCard>
      )}
    />
  );

  return (
    <>
      <ListToolbar list={list}>
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
      </ListToolbar>
      {body}
      {dialog?.kind === 'edit' ? (
        <CampaignDialog campaign={dialog.campaign} onClose={close} />
      ) : null}
      {dialog?.kind === 'send' ? (
        <SendConfirmDialog
          campaign={dialog.campaign}
          busy={sendBusy}
          onConfirm={() => void confirmSend(dialog.campaign)}
          onClose={close}
        />
      ) : null}
      <DeleteConfirmDialog
        item={dialog?.kind === 'delete' ? dialog.campaign : null}
        title={(item) => t('confirmDelete.title', { name: item.name })}
        description={t('confirmDelete.description')}
        confirmLabel={t('confirmDelete.confirm')}
        remove={deleteCampaign}
        deleted={t('toasts.deleted')}
        failed={{ title: t('toasts.deleteFailed') }}
        onClose={close}
      />
      {dialog?.kind === 'test' ? (
        <TestSendDialog campaign={dialog.campaign} onClose={close} />
      ) : null}
      {dialog?.kind === 'schedule' ? (
        <ScheduleDialogLoader campaign={dialog.campaign} onClose={close} />
      ) : null}
      {dialog?.kind === 'recipients' ? (
        <CampaignRecipientsDialog campaign={dialog.campaign} onClose={close} />
      ) : null}
      <ConfirmDialog
        open={Boolean(confirming)}
        title={
          confirming
            ? t(`controls.${confirming.control}.confirmTitle`, { name: confirming.campaign.name })
            : ''
        }
        description={
          confirming
            ? t(`controls.${confirming.control}.confirmDescription`, {
                failed: format.number(confirming.campaign.failedCount),
              })
            : ''
        }
        confirmLabel={confirming ? t(`controls.${confirming.control}.confirm`) : ''}
        destructive={confirming?.control === 'cancel'}
        busy={controlBusy}
        onConfirm={() => void confirmControl()}
        onClose={close}
      />
    </>
  );
}
