import { randomUUID } from 'node:crypto';
import type { Job } from 'bullmq';
import type { CampaignTestSendJob } from '@agency/contracts';
import { findCampaignForSend, type Logger } from '@agency/backend/store';
import { isPermanentSmtpFailure } from '../mail/smtp-failure';
import { UnrecoverableError } from 'bullmq';
import {
  compileCampaign,
  sendCampaignMail,
  type CampaignMailDeps,
} from './campaign-send.processor';

export const TEST_SUBJECT_PREFIX = '[Test] ';

/**
 * A campaign as its recipients will see it, to one address, marked as a
 * test in the subject. It is not in the ledger and counts nowhere.
 */
export function campaignTestSendProcessor(deps: CampaignMailDeps & { logger: Logger }) {
  return async (job: Job<CampaignTestSendJob>): Promise<'sent' | 'skipped'> => {
    const campaign = await findCampaignForSend(job.data.campaignId);
    if (!campaign) return 'skipped';
    const mail = compileCampaign(
      { subject: `${TEST_SUBJECT_PREFIX}${campaign.subject}`, content: campaign.content },
      deps.mailFrom,
    );
    try {
      await sendCampaignMail(
        deps,
        mail,
        { email: job.data.email, firstName: '', locale: 'en' },
        `<campaign-test-${randomUUID()}@${deps.messageIdDomain}>`,
      );
    } catch (error) {
      // A refused address will stay refused: no point in retrying for hours.
      if (isPermanentSmtpFailure(error)) throw new UnrecoverableError(String(error));
      throw error;
    }
    deps.logger.info({ campaignId: job.data.campaignId, jobId: job.id }, 'campaign test sent');
    return 'sent';
  };
}
