import type { CampaignDto, Locale } from '@agency/contracts';
import { HttpError } from '../../errors';
import {
  enqueueRoundDispatch,
  enqueueTestSend,
  type CampaignQueue,
} from '../../queues/campaign-queue';
import {
  type Redis,
  DomainError,
  campaignExists,
  cancelCampaign,
  pauseCampaign,
  resumeCampaign,
  returnResumedCampaignToPaused,
  startResendRound,
  withCampaignLockOrThrow,
} from '@agency/platform';

/**
 * The send controls: pause, resume, cancel and resend, each a conditional
 * status change the campaigns module makes (and its round's state in Redis),
 * under the campaign's lock; the dispatch jobs they need are added here. The
 * progress is the campaigns module's readCampaignProgress, the recipients'
 * pages are read in campaign-recipients.service.
 */
const unavailable = () =>
  new HttpError('UNAVAILABLE', 'Sending is unavailable right now; please try again shortly');

/** paused -> queued as a new pass; if Redis cannot take the dispatch the campaign stays paused. */
async function resume(queue: CampaignQueue, id: string): Promise<CampaignDto> {
  const { campaign, round, pass } = await resumeCampaign(id);
  try {
    await enqueueRoundDispatch(queue, id, round, pass);
  } catch {
    await returnResumedCampaignToPaused(id);
    throw unavailable();
  }
  return campaign;
}

/** A new round for the recipients whose mail failed, and its dispatch. */
async function resend(queue: CampaignQueue, id: string): Promise<CampaignDto> {
  const { campaign, round, pass } = await startResendRound(id);
  try {
    await enqueueRoundDispatch(queue, id, round, pass);
  } catch {
    // The dispatch is re-added by the worker's recovery pass; say so rather than undo.
    throw unavailable();
  }
  return campaign;
}

export interface CampaignControls {
  pause(id: string): Promise<CampaignDto>;
  resume(id: string): Promise<CampaignDto>;
  cancel(id: string): Promise<CampaignDto>;
  resendToFailed(id: string): Promise<CampaignDto>;
}

/** How long a control waits for the worker's write of the same campaign to finish. */
const CONTROL_LOCK_WAIT_MS = 3000;

/**
 * The sending controls, each holding the campaign's write lock so that a
 * worker's progress write cannot undo it on the embedded store.
 */
export function campaignControls({
  queue,
  redis,
  prefix,
}: {
  queue: CampaignQueue;
  redis: Redis;
  prefix: string;
}): CampaignControls {
  const locked =
    (write: (id: string) => Promise<CampaignDto>) =>
    async (id: string): Promise<CampaignDto> => {
      try {
        return await withCampaignLockOrThrow(redis, prefix, id, CONTROL_LOCK_WAIT_MS, () =>
          write(id),
        );
      } catch (error) {
        if (error instanceof DomainError) throw error;
        throw unavailable();
      }
    };
  return {
    pause: locked(pauseCampaign),
    resume: locked((id) => resume(queue, id)),
    cancel: locked((id) => cancelCampaign(redis, prefix, id)),
    resendToFailed: locked((id) => resend(queue, id)),
  };
}

export async function sendTestMail(
  queue: CampaignQueue,
  id: string,
  email: string,
  locale?: Locale,
): Promise<void> {
  if (!(await campaignExists(id))) {
    throw new HttpError('NOT_FOUND', 'No campaign with this id');
  }
  try {
    await enqueueTestSend(queue, { campaignId: id, email, ...(locale ? { locale } : {}) });
  } catch {
    throw unavailable();
  }
}
