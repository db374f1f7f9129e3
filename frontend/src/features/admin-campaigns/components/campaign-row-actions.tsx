import type { CampaignDto } from '@agency/contracts';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import ForwardToInboxIcon from '@mui/icons-material/ForwardToInbox';
import GroupsIcon from '@mui/icons-material/Groups';
import InsightsIcon from '@mui/icons-material/Insights';
import PauseIcon from '@mui/icons-material/Pause';
import PlayArrowIcon from '@mui/icons-material/PlayArrow';
import PublicIcon from '@mui/icons-material/Public';
import PublicOffIcon from '@mui/icons-material/PublicOff';
import ReplayIcon from '@mui/icons-material/Replay';
import ScheduleIcon from '@mui/icons-material/Schedule';
import SendIcon from '@mui/icons-material/Send';
import StopCircleIcon from '@mui/icons-material/StopCircle';
import Button from '@mui/material/Button';
import {
  deleteAction,
  editAction,
  RowActions,
  type RowAction,
} from '../../../components/admin/row-actions';
import { adminCampaignReportPath } from '../../../lib/admin-paths';
import type { useNamespace } from '../../../lib/translations';
import { isInProgress } from '../hooks/use-campaign-progress';
import type { CampaignListCommands } from '../hooks/use-campaign-list-commands';
import type { CampaignListDialog } from './campaign-list-dialog';

type Translate = ReturnType<typeof useNamespace>['t'];

/** What a row's buttons need beyond the campaign: the role, the commands, the dialogs. */
export interface CampaignRowContext {
  t: Translate;
  canWrite: boolean;
  canSend: boolean;
  commands: Pick<
    CampaignListCommands,
    'runControl' | 'controlBusy' | 'duplicating' | 'togglePublication' | 'publicationBusy'
  >;
  duplicate: (campaign: CampaignDto) => void;
  open: (dialog: CampaignListDialog) => void;
}

/** Campaigns whose mail went out, or began to: their results have something to say. */
const REPORTED_STATUSES: readonly CampaignDto['status'][] = [
  'sending',
  'paused',
  'sent',
  'cancelled',
  'failed',
];

/** Resend to the failed exists on a finished campaign that has failures. */
function canResend(campaign: CampaignDto): boolean {
  return (campaign.status === 'sent' || campaign.status === 'failed') && campaign.failedCount > 0;
}

/** Pause, resume, cancel and resend to the failed, for the roles that may send. */
function sendingControls(
  campaign: CampaignDto,
  { t, canSend, commands, open }: CampaignRowContext,
): (RowAction | false)[] {
  const { name, status } = campaign;
  const running = status === 'queued' || status === 'sending';
  return [
    canSend &&
      running && {
        label: t('controls.pause.action', { name }),
        icon: <PauseIcon fontSize="small" />,
        onClick: () => void commands.runControl(campaign, 'pause'),
        disabled: commands.controlBusy,
      },
    canSend &&
      status === 'paused' && {
        label: t('controls.resume.action', { name }),
        icon: <PlayArrowIcon fontSize="small" />,
        onClick: () => void commands.runControl(campaign, 'resume'),
        disabled: commands.controlBusy,
      },
    canSend &&
      isInProgress(status) && {
        label: t('controls.cancel.action', { name }),
        icon: <StopCircleIcon fontSize="small" />,
        onClick: () => open({ kind: 'confirm', campaign, control: 'cancel' }),
      },
    canSend &&
      canResend(campaign) && {
        label: t('controls.resend-failed.action', { name }),
        icon: <ReplayIcon fontSize="small" />,
        onClick: () => open({ kind: 'confirm', campaign, control: 'resend-failed' }),
      },
  ];
}

/** A sent campaign's place on the public archive (a draft's is the editor's switch). */
function archiveAction(
  campaign: CampaignDto,
  { t, canSend, commands }: CampaignRowContext,
): RowAction | false {
  const { name, publishToArchive } = campaign;
  if (!canSend || campaign.status !== 'sent') return false;
  return {
    label: t(publishToArchive ? 'archiveAction.unpublish' : 'archiveAction.publish', { name }),
    icon: publishToArchive ? <PublicOffIcon fontSize="small" /> : <PublicIcon fontSize="small" />,
    onClick: () => void commands.togglePublication(campaign),
    disabled: commands.publicationBusy,
  };
}

/** A test, the schedule, the recipients and results, then editing, copying and deleting. */
function campaignTools(
  campaign: CampaignDto,
  { t, canSend, canWrite, commands, duplicate, open }: CampaignRowContext,
): (RowAction | false)[] {
  const { name, status } = campaign;
  const draft = status === 'draft';
  return [
    canSend && {
      label: t('testSend.action', { name }),
      icon: <ForwardToInboxIcon fontSize="small" />,
      onClick: () => open({ kind: 'test', campaign }),
    },
    canSend &&
      (draft || status === 'scheduled') && {
        label: t('schedule.action', { name }),
        icon: <ScheduleIcon fontSize="small" />,
        onClick: () => open({ kind: 'schedule', campaign }),
      },
    !draft &&
      status !== 'scheduled' && {
        label: t('ledger.action', { name }),
        icon: <GroupsIcon fontSize="small" />,
        onClick: () => open({ kind: 'recipients', campaign }),
      },
    REPORTED_STATUSES.includes(status) && {
      label: t('results', { name }),
      icon: <InsightsIcon fontSize="small" />,
      to: adminCampaignReportPath(campaign.id),
    },
    draft && canWrite && editAction(t('edit', { name }), () => open({ kind: 'edit', campaign })),
    canWrite && {
      label: t('duplicate', { name }),
      icon: <ContentCopyIcon fontSize="small" />,
      onClick: () => duplicate(campaign),
      disabled: commands.duplicating,
    },
    canWrite &&
      !isInProgress(status) &&
      deleteAction(t('delete', { name }), () => open({ kind: 'delete', campaign })),
  ];
}

/** A campaign's buttons, the same in a table row and on a phone's card. */
export function campaignRowActions(campaign: CampaignDto, context: CampaignRowContext) {
  const { t, canSend, open } = context;
  return (
    <RowActions
      actions={[
        ...sendingControls(campaign, context),
        archiveAction(campaign, context),
        ...campaignTools(campaign, context),
      ]}
    >
      {/* Send exists only on drafts, for roles that may send. */}
      {campaign.status === 'draft' && canSend ? (
        <Button
          size="small"
          variant="contained"
          startIcon={<SendIcon />}
          aria-label={t('sendName', { name: campaign.name })}
          onClick={() => open({ kind: 'send', campaign })}
        >
          {t('send')}
        </Button>
      ) : null}
    </RowActions>
  );
}
