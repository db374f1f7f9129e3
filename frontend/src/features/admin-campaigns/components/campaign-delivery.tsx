import type { CampaignDto } from '@agency/contracts';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useEffect, useEffectEvent } from 'react';
import { api } from '../../../lib/api';
import { useAppDispatch } from '../../../lib/hooks';
import { useFormatters } from '../../../lib/use-formatters';
import { useMailServerOutage } from '../../../lib/mail-server-status';
import { useNamespace } from '../../../lib/translations';
import { useToast } from '../../../lib/use-toast';
import { useCampaignSettingsQuery } from '../api/campaigns-api';
import { CAMPAIGNS_NAMESPACE } from '../campaigns-namespace';
import {
  isInProgress,
  useCampaignProgress,
  type CampaignProgress,
} from '../hooks/use-campaign-progress';

/** Once per finished send, a toast with the figures of the reading that ended it. */
function useEndOfSendToast({ campaign, justFinished }: CampaignProgress) {
  const { t } = useNamespace(CAMPAIGNS_NAMESPACE);
  const format = useFormatters();
  const toast = useToast();
  const { sentCount, failedCount, status, name } = campaign;
  const announceEnd = useEffectEvent(() =>
    toast({
      title: t(`toasts.ended.${status}`, { name }),
      description: t('toasts.finishedDescription', {
        sent: format.number(sentCount),
        failed: format.number(failedCount),
      }),
      variant: status === 'sent' && failedCount === 0 ? 'success' : 'default',
    }),
  );
  useEffect(() => {
    if (justFinished) announceEnd();
  }, [justFinished]);
}

/**
 * A send under way: a bar, then the counts, what is left and the server's
 * rate, or why nothing moves (paused, the mail server, still counting).
 */
function SendProgress({
  progress: { campaign, percent, ratePerSecond, pendingCount },
  waitingForMailServer,
}: {
  progress: CampaignProgress;
  waitingForMailServer: boolean;
}) {
  const { t } = useNamespace(CAMPAIGNS_NAMESPACE);
  const format = useFormatters();
  const { sentCount, failedCount, total, status, name } = campaign;
  const done = sentCount + failedCount;
  const counted = total > 0;
  const details = [
    t('progress.settled', { done: format.number(done), total: format.number(total) }),
    t('progress.failed', { count: format.number(failedCount) }),
    pendingCount ? t('progress.pending', { pending: format.number(pendingCount) }) : null,
    status === 'paused'
      ? t('progress.paused')
      : waitingForMailServer
        ? t('progress.mailServer')
        : ratePerSecond !== null
          ? t('progress.rate', { rate: format.number(ratePerSecond) })
          : null,
  ];
  return (
    // The table's cells keep to one line and hide what passes their edge: the
    // counts wrap instead, and the row grows to hold them (campaign-manager.tsx).
    <Stack
      spacing={0.5}
      sx={{ width: '100%', minWidth: 0, py: 0.5, whiteSpace: 'normal', overflowWrap: 'anywhere' }}
      aria-live="polite"
    >
      <LinearProgress
        variant={counted ? 'determinate' : 'indeterminate'}
        color={status === 'paused' ? 'warning' : 'primary'}
        value={percent ?? 0}
        aria-label={t('progress.label', { name })}
        aria-valuetext={
          counted
            ? t('progress.percent', { percent: format.number(percent ?? 0) })
            : t('progress.counting')
        }
      />
      <Typography variant="caption">
        {counted
          ? details.filter(Boolean).join(' · ')
          : waitingForMailServer
            ? t('progress.mailServer')
            : status === 'queued'
              ? t('progress.waiting')
              : status === 'paused'
                ? t('progress.paused')
                : t('progress.counting')}
      </Typography>
    </Stack>
  );
}

/**
 * Where a campaign's mail stands: not sent, live progress (a bar, the counts,
 * what is left and the server's rate), or the final counts.
 */
export function CampaignDelivery({ campaign: listed }: { campaign: CampaignDto }) {
  const { t } = useNamespace(CAMPAIGNS_NAMESPACE);
  const format = useFormatters();
  const progress = useCampaignProgress(listed);
  const { campaign } = progress;
  const { sentCount, failedCount, status } = campaign;
  // Queued or sending while the worker cannot reach the SMTP server: nothing moves until it answers.
  const waitingForMailServer = useMailServerOutage() !== null && status !== 'paused';
  useEndOfSendToast(progress);

  if (status === 'scheduled' && campaign.scheduledAt) {
    return <ScheduledFor scheduledAt={campaign.scheduledAt} />;
  }
  if (status === 'draft') {
    return (
      <Typography variant="body2" sx={{ color: 'text.secondary' }}>
        {t('notSent')}
      </Typography>
    );
  }
  if (!isInProgress(status)) {
    return (
      <Typography variant="body2">
        {t('counts', { sent: format.number(sentCount), failed: format.number(failedCount) })}
      </Typography>
    );
  }
  return <SendProgress progress={progress} waitingForMailServer={waitingForMailServer} />;
}

/** Longest a timer may wait in a browser (about 24.8 days). */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * When a scheduled campaign goes, on the agency's clock. At that moment the
 * list is read again, so the send shows its progress as it starts.
 */
function ScheduledFor({ scheduledAt }: { scheduledAt: string }) {
  const { t } = useNamespace(CAMPAIGNS_NAMESPACE);
  const format = useFormatters();
  const dispatch = useAppDispatch();
  const { data: settings, isError: settingsFailed } = useCampaignSettingsQuery(undefined);
  useEffect(() => {
    const wait = new Date(scheduledAt).getTime() - Date.now() + 1500;
    if (wait > MAX_TIMER_MS) return undefined;
    const refresh = () => dispatch(api.util.invalidateTags(['Campaigns']));
    let repeat: ReturnType<typeof setInterval> | undefined;
    // Until the worker has taken it up, the list still says scheduled: ask again.
    const timer = setTimeout(
      () => {
        refresh();
        repeat = setInterval(refresh, 3000);
      },
      Math.max(wait, 0),
    );
    return () => {
      clearTimeout(timer);
      clearInterval(repeat);
    };
  }, [scheduledAt, dispatch]);
  // The time is only shown on the agency's clock, or, when its zone cannot be
  // read, on the browser's with the zone named: never the browser's unnamed.
  if (!settings && !settingsFailed) return null;
  const when = format.dateTime(scheduledAt);
  return (
    <Typography variant="body2" sx={{ color: 'text.secondary' }}>
      {t('schedule.goesAt', { when })}
    </Typography>
  );
}
