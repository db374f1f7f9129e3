import { randomUUID } from 'node:crypto';
import { UnrecoverableError, type Job } from 'bullmq';
import { TEST_SEND_SAMPLE_NAMES, type CampaignTestSendJob } from '@agency/contracts';
import {
  mailMessageId,
  type Logger,
  type MailIdentityKey,
  type CampaignStore,
} from '@agency/platform';
import type { CampaignMessenger } from './campaign-messenger';

export const TEST_SUBJECT_PREFIX = '[Test] ';

/**
 * A campaign as its recipients will see it, to one address, in the language
 * asked for (the campaign's default when it is not written), marked as a
 * test in the subject, its placeholders filled with sample names and its
 * unsubscribe links leading to a page that says it was a test. It is not in the ledger and counts nowhere. Only a
 * staff address or one an admin allows gets it, never a suppressed or
 * unsubscribed one.
 */
export function campaignTestSendProcessor(deps: {
  store: CampaignStore;
  messenger: CampaignMessenger;
  messageIdDomain: string;
  identityKey: MailIdentityKey;
  logger: Logger;
}) {
  return async (job: Job<CampaignTestSendJob>): Promise<'sent' | 'skipped'> => {
    const campaign = await deps.store.mail(job.data.campaignId);
    if (!campaign) return 'skipped';
    // The API checked the address when it queued the test; checked again
    // here because a job can be retried from the queue board long after,
    // when the address may have bounced, unsubscribed or left the staff.
    const refusal = await deps.store.testRecipientRefusal(job.data.email);
    if (refusal) {
      deps.logger.warn(
        { campaignId: job.data.campaignId, jobId: job.id, refusal },
        'campaign test not sent: the address may no longer receive tests',
      );
      return 'skipped';
    }
    const languages = Object.fromEntries(
      Object.entries(campaign.languages).map(([locale, written]) => [
        locale,
        { ...written, subject: `${TEST_SUBJECT_PREFIX}${written.subject}` },
      ]),
    );
    const mail = deps.messenger.prepare({ ...campaign, languages }, { test: true });
    const locale = job.data.locale ?? campaign.defaultLocale;
    // The names of the language the test is read in; a language the
    // campaign is not written in reads its default's.
    const sample =
      TEST_SEND_SAMPLE_NAMES[campaign.languages[locale] ? locale : campaign.defaultLocale];
    try {
      await mail.send(
        { email: job.data.email, ...sample, locale },
        mailMessageId(
          deps.identityKey,
          `campaign-test-${randomUUID()}`,
          job.data.email,
          deps.messageIdDomain,
        ),
      );
    } catch (error) {
      // A refused address will stay refused: no point in retrying for hours.
      if (deps.messenger.isPermanentFailure(error)) throw new UnrecoverableError(String(error));
      throw error;
    }
    deps.logger.info({ campaignId: job.data.campaignId, jobId: job.id }, 'campaign test sent');
    return 'sent';
  };
}
