import {
  LEDGER_STATES,
  type CampaignDto,
  type CampaignRecipientDto,
  type LedgerState,
  type SortKey,
} from '@agency/contracts';
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import type { GridColDef } from '@mui/x-data-grid';
import { useMemo, useState } from 'react';
import { AdminList } from '../../../components/admin/admin-list';
import { EmptyState } from '../../../components/admin/empty-state';
import { RecordCard } from '../../../components/admin/record-card';
import { StatusChip } from '../../../components/admin/status-chip';
import { ViewDialog } from '../../../components/admin/view-dialog';
import { useFormatters, type Formatters } from '../../../lib/use-formatters';
import { useNamespace } from '../../../lib/translations';
import { useCampaignRecipientsQuery } from '../api/campaigns-api';
import { CAMPAIGNS_NAMESPACE } from '../campaigns-namespace';
import { FailureReasonText } from './failure-reason-text';

type RecipientRow = CampaignRecipientDto & { id: string };
type Translate = ReturnType<typeof useNamespace>['t'];

const STATE_COLORS: Record<LedgerState, 'default' | 'success' | 'error'> = {
  pending: 'default',
  sent: 'success',
  failed: 'error',
};

export interface CampaignRecipientsDialogProps {
  campaign: CampaignDto;
  onClose: () => void;
}

function stateChip(row: CampaignRecipientDto, t: Translate) {
  return <StatusChip label={t(`ledger.state.${row.state}`)} color={STATE_COLORS[row.state]} />;
}

/** A bounce or complaint that came back after the send, with the provider's words on hover. */
function mailEventChip(row: CampaignRecipientDto, t: Translate) {
  return row.mailEvent ? (
    <Tooltip title={row.mailEvent.detail ?? ''} describeChild>
      <span>
        <StatusChip
          label={t(`ledger.mailEvent.${row.mailEvent.kind}`)}
          color={row.mailEvent.kind === 'soft-bounce' ? 'warning' : 'error'}
        />
      </span>
    </Tooltip>
  ) : null;
}

/** The ledger table's columns. */
function recipientColumns(t: Translate, format: Formatters): GridColDef<RecipientRow>[] {
  return [
    { field: 'email', headerName: t('ledger.columns.email'), flex: 1, minWidth: 200 },
    {
      field: 'state',
      headerName: t('ledger.columns.state'),
      width: 110,
      sortable: false,
      renderCell: ({ row }) => stateChip(row, t),
    },
    {
      field: 'reason',
      headerName: t('ledger.columns.reason'),
      flex: 1.4,
      minWidth: 200,
      sortable: false,
      valueGetter: (_value, row) => row.reason ?? '',
      renderCell: ({ row }) => (row.reason ? <FailureReasonText reason={row.reason} /> : null),
    },
    {
      field: 'mailEvent',
      headerName: t('ledger.columns.mailEvent'),
      width: 170,
      sortable: false,
      renderCell: ({ row }) => mailEventChip(row, t),
    },
    {
      field: 'attempts',
      headerName: t('ledger.columns.attempts'),
      width: 90,
      sortable: false,
      type: 'number',
    },
    {
      field: 'at',
      headerName: t('ledger.columns.at'),
      width: 170,
      sortable: false,
      valueFormatter: (value: string) => format.dateTime(value),
    },
  ];
}

/** One recipient on a phone: its state, the reason it failed, a later bounce, when and how often. */
function RecipientCard({ row }: { row: RecipientRow }) {
  const { t } = useNamespace(CAMPAIGNS_NAMESPACE);
  const format = useFormatters();
  return (
    <RecordCard title={row.email} badge={stateChip(row, t)}>
      {row.reason ? <FailureReasonText reason={row.reason} /> : null}
      {row.mailEvent ? (
        <Typography variant="body2">
          {t(`ledger.mailEvent.${row.mailEvent.kind}`)}
          {row.mailEvent.detail ? `: ${row.mailEvent.detail}` : ''}
        </Typography>
      ) : null}
      <Typography variant="body2" sx={{ color: 'text.secondary' }}>
        {format.dateTime(row.at)} ·{' '}
        {t('ledger.attempts', { attempts: format.number(row.attempts) })}
      </Typography>
    </RecordCard>
  );
}

/** The ledger's page for the state shown, with its paging and order; a new state starts at page 1. */
function useRecipientPages(campaign: CampaignDto) {
  const [state, setState] = useState<LedgerState>(campaign.failedCount > 0 ? 'failed' : 'sent');
  const [paging, setPaging] = useState({ page: 1, pageSize: 25 });
  const [sort, setSort] = useState<SortKey<'email'>>('email');
  const recipients = useCampaignRecipientsQuery({
    id: campaign.id,
    state,
    sort,
    ...paging,
  });
  const { data } = recipients;
  const page = useMemo(
    () =>
      data && {
        ...data,
        // A recipient in flight at a worker crash can have two facts: the index keeps rows apart.
        items: data.items.map((item, index) => ({ ...item, id: `${index}-${item.email}` })),
      },
    [data],
  );
  const showState = (next: LedgerState) => {
    setState(next);
    setPaging((current) => ({ ...current, page: 1 }));
  };
  const list = {
    ...paging,
    sort,
    search: '',
    // Each state has its own empty state: the list is never "filtered" to nothing.
    filters: {},
    setPage: (next: number, pageSize?: number) =>
      setPaging((current) => ({ page: next, pageSize: pageSize ?? current.pageSize })),
    setSort: (next: string | undefined) => setSort(next === '-email' ? '-email' : 'email'),
  };
  return { state, showState, query: { ...recipients, data: page }, list };
}

/**
 * A campaign's ledger: who was mailed, who is still waiting, and who could
 * not be reached with the SMTP server's reply, one state at a time, paged
 * by the API. Opens on the failures when there are some.
 */
export function CampaignRecipientsDialog({ campaign, onClose }: CampaignRecipientsDialogProps) {
  const { t } = useNamespace(CAMPAIGNS_NAMESPACE);
  const format = useFormatters();
  const { state, showState, query, list } = useRecipientPages(campaign);
  const columns = useMemo(() => recipientColumns(t, format), [t, format]);

  return (
    <ViewDialog title={t('ledger.title', { name: campaign.name })} maxWidth="lg" onClose={onClose}>
      <Tabs
        value={state}
        onChange={(_event, next: LedgerState) => showState(next)}
        aria-label={t('ledger.filter')}
        variant="scrollable"
        allowScrollButtonsMobile
        sx={{ mb: 2, borderBottom: 1, borderColor: 'divider' }}
      >
        {LEDGER_STATES.map((value) => (
          <Tab key={value} value={value} label={t(`ledger.tab.${value}`)} />
        ))}
      </Tabs>
      <AdminList<RecipientRow>
        autoRowHeight
        label={t('ledger.tableLabel')}
        query={query}
        list={list}
        empty={
          <EmptyState
            icon={<CheckCircleIcon />}
            title={t(`ledger.empty.${state}`)}
            description={t('ledger.emptyHint')}
          />
        }
        columns={columns}
        renderCard={(row) => <RecipientCard row={row} />}
      />
    </ViewDialog>
  );
}
