import {
  CAMPAIGN_SORT_FIELDS,
  CAMPAIGN_STATUSES,
  type CampaignDto,
  type CampaignListQuery,
} from '@agency/contracts';
import AddIcon from '@mui/icons-material/Add';
import EmailIcon from '@mui/icons-material/Email';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useCallback, useMemo, useState, type ReactNode } from 'react';
import { EmptyState } from '../../../components/admin/empty-state';
import { FilterSelect } from '../../../components/admin/filter-select';
import { AdminList } from '../../../components/admin/admin-list';
import { ListToolbar } from '../../../components/admin/list-toolbar';
import { RecordCard } from '../../../components/admin/record-card';
import { useAdminCan } from '../../../lib/admin-session';
import { useFormatters } from '../../../lib/use-formatters';
import { useListParams, type ListParams } from '../../../lib/use-list-params';
import { useNamespace } from '../../../lib/translations';
import { useCampaignListQuery } from '../api/campaigns-api';
import { CAMPAIGNS_NAMESPACE } from '../campaigns-namespace';
import { useCampaignListCommands } from '../hooks/use-campaign-list-commands';
import { campaignColumns, campaignStatusChip, rateText } from './campaign-columns';
import { CampaignDelivery } from './campaign-delivery';
import type { CampaignListDialog } from './campaign-list-dialog';
import { CampaignListDialogs } from './campaign-list-dialogs';
import { campaignRowActions } from './campaign-row-actions';

/** Above the list: the search, the status filter and, for those who may write, New campaign. */
function CampaignToolbar({
  list,
  addButton,
}: {
  list: ListParams<'status'>;
  addButton: ReactNode;
}) {
  const { t } = useNamespace(CAMPAIGNS_NAMESPACE);
  return (
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
  );
}

/** One campaign on a phone: its subject, recipients, date and delivery, then its buttons. */
function CampaignCard({ campaign, actions }: { campaign: CampaignDto; actions: ReactNode }) {
  const { t } = useNamespace(CAMPAIGNS_NAMESPACE);
  const format = useFormatters();
  return (
    <RecordCard title={campaign.name} badge={campaignStatusChip(campaign, t)} actions={actions}>
      <Typography variant="body2" sx={{ color: 'text.secondary' }}>
        {campaign.subject}
      </Typography>
      <Typography variant="body2" sx={{ mb: 1 }}>
        {t(`recipientsShort.${campaign.recipientType}`)} · {format.date(campaign.createdAt)}
      </Typography>
      <CampaignDelivery campaign={campaign} />
      {campaign.rates ? (
        <Typography variant="body2" sx={{ mt: 1 }}>
          {t('rates.card', {
            open: rateText(campaign, 'open', t, format),
            click: rateText(campaign, 'click', t, format),
          })}
        </Typography>
      ) : null}
    </RecordCard>
  );
}

/**
 * Each campaign's buttons, for the role that signed in. A copy opens in the
 * editor at once: what one copies a campaign for is to change it.
 */
function useCampaignRowActions(
  commands: ReturnType<typeof useCampaignListCommands>,
  open: (dialog: CampaignListDialog) => void,
) {
  const { t } = useNamespace(CAMPAIGNS_NAMESPACE);
  const canWrite = useAdminCan('campaigns:write');
  const canSend = useAdminCan('campaigns:send');
  const { duplicate, runControl, controlBusy, duplicating, togglePublication, publicationBusy } =
    commands;
  return useCallback(
    (campaign: CampaignDto) =>
      campaignRowActions(campaign, {
        t,
        canWrite,
        canSend,
        commands: { runControl, controlBusy, duplicating, togglePublication, publicationBusy },
        duplicate: (original) =>
          void duplicate(original).then((copy) => {
            if (copy) open({ kind: 'edit', campaign: copy });
          }),
        open,
      }),
    [
      t,
      canSend,
      canWrite,
      runControl,
      controlBusy,
      duplicate,
      duplicating,
      togglePublication,
      publicationBusy,
      open,
    ],
  );
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
  const canWrite = useAdminCan('campaigns:write');
  const list = useListParams<'status'>({
    sortFields: CAMPAIGN_SORT_FIELDS,
    defaultSort: '-createdAt',
    filters: ['status'],
  });
  const query = useCampaignListQuery(list.query as Partial<CampaignListQuery>);
  const [dialog, setDialog] = useState<CampaignListDialog | null>(null);
  const close = () => setDialog(null);
  const commands = useCampaignListCommands();
  const actions = useCampaignRowActions(commands, setDialog);
  const columns = useMemo(() => campaignColumns(t, format, actions), [t, format, actions]);

  const addButton = canWrite ? (
    <Button variant="contained" startIcon={<AddIcon />} onClick={() => setDialog({ kind: 'edit' })}>
      {t('add')}
    </Button>
  ) : null;

  return (
    <>
      <CampaignToolbar list={list} addButton={addButton} />
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
        renderCard={(campaign) => <CampaignCard campaign={campaign} actions={actions(campaign)} />}
      />
      <CampaignListDialogs dialog={dialog} commands={commands} onClose={close} />
    </>
  );
}
