import type { CampaignDto, CampaignStatus } from '@agency/contracts';
import type { GridColDef } from '@mui/x-data-grid';
import type { ReactNode } from 'react';
import { StatusChip } from '../../../components/admin/status-chip';
import { actionsColumn } from '../../../components/admin/row-actions';
import type { useNamespace } from '../../../lib/translations';
import { campaignRate, type RateKind } from '../../../lib/campaign-rate';
import type { Formatters } from '../../../lib/use-formatters';
import { CampaignDelivery } from './campaign-delivery';

type Translate = ReturnType<typeof useNamespace>['t'];

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

/** A campaign's status, highlighted once it left the drafts. */
export function campaignStatusChip(campaign: CampaignDto, t: Translate) {
  return (
    <StatusChip
      label={t(`status.${campaign.status}`)}
      color={STATUS_COLORS[campaign.status]}
      highlighted={campaign.status !== 'draft'}
    />
  );
}

/**
 * People's unique rate over delivered; "Not tracked" when the campaign did
 * not track that kind, a dash before anything was delivered.
 */
export function rateText(
  campaign: Pick<CampaignDto, 'rates' | 'tracking'>,
  kind: RateKind,
  t: Translate,
  format: Formatters,
): string {
  const rate = campaignRate(campaign, kind);
  if (rate === 'not-tracked') return t('rates.notTracked');
  return rate === null ? t('rates.none') : t('rates.percent', { value: format.number(rate) });
}

/** A rate column: the figure, "Not tracked", or a dash while the campaign has none. */
function rateColumn(
  field: string,
  headerName: string,
  kind: RateKind,
  t: Translate,
  format: Formatters,
): GridColDef<CampaignDto> {
  return {
    field,
    headerName,
    width: 100,
    sortable: false,
    valueGetter: (_value, row) => rateText(row, kind, t, format),
  };
}

/** The campaign table's columns, each campaign's buttons last. */
export function campaignColumns(
  t: Translate,
  format: Formatters,
  actions: (campaign: CampaignDto) => ReactNode,
): GridColDef<CampaignDto>[] {
  return [
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
      renderCell: ({ row }) => campaignStatusChip(row, t),
    },
    {
      field: 'delivery',
      headerName: t('columns.delivery'),
      flex: 1.2,
      minWidth: 180,
      sortable: false,
      renderCell: ({ row }) => <CampaignDelivery campaign={row} />,
    },
    rateColumn('openRate', t('columns.openRate'), 'open', t, format),
    rateColumn('clickRate', t('columns.clickRate'), 'click', t, format),
    {
      field: 'createdAt',
      headerName: t('columns.created'),
      width: 120,
      valueFormatter: (value: string) => format.date(value),
    },
    actionsColumn(t('columns.actions'), actions, 264),
  ];
}
