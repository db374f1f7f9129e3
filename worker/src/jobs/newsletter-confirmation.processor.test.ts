import { UnrecoverableError, type Job } from 'bullmq';
import type { Locale, NewsletterConfirmationJob } from '@agency/contracts';
import {
  createLogger,
  mailIdentityKey,
  mailMessageId,
  findSubscriberByEmail,
  requestSubscription,
  UNWATCHED_SUBSCRIBERS,
} from '@agency/platform';
import { createMailTransport, type MailTransport } from '../mail/transport';
import { SITE_URL, createPipelineContext, type PipelineContext } from '../testing/pipeline-context';
import { startSmtpSink, type SmtpSink } from '../testing/smtp-sink';
import { newsletterConfirmationProcessor } from './newsletter-confirmation.processor';
import { confirmationMailState } from '../testing/mail-states';

/** The processor on its own, called with real jobs, against MongoDB and an SMTP server. */
describe('the newsletter confirmation processor', () => {
  let ctx: PipelineContext;
  let smtp: SmtpSink;
  let transport: MailTransport;
  let process: (job: Job<NewsletterConfirmationJob>) => Promise<unknown>;
  let counter = 0;

  beforeAll(async () => {
    ctx = await createPipelineContext();
  });
  afterAll(async () => {
    await ctx.close();
  });
  beforeEach(async () => {
    smtp = await startSmtpSink();
    transport = createMailTransport(smtp.url);
    process = newsletterConfirmationProcessor({
      transport,
      mailFrom: 'Agency <no-reply@agency.test>',
      siteUrl: SITE_URL,
      mailLinkSecret: ctx.config.mailLinkSecret,
      messageIdDomain: 'agency.test',
      identityKey: mailIdentityKey(ctx.config.mailLinkSecret),
      logger: createLogger('test', 'silent'),
    });
  });
  afterEach(async () => {
    transport.close();
    await smtp.close();
  });

  /** Records a subscription request as the worker does; returns a job for its latest request. */
  async function subscribe(locale: Locale = 'fr', email = `reader${(counter += 1)}@example.tn`) {
    await requestSubscription(
      { email, locale, source: 'newsletter-banner', ip: '203.0.113.5' },
      UNWATCHED_SUBSCRIBERS,
    );
    const subscriber = await findSubscriberByEmail(email);
    if (!subscriber) throw new Error('not stored');
    const data = {
      subscriberId: subscriber.id as string,
      request: subscriber.confirmationRequests,
    };
    const job = await ctx.queues.newsletterConfirmation.add('direct', data, {
      jobId: `direct-${data.subscriberId}-${data.request}`,
      attempts: 3,
    });
    return { email, job };
  }

  it('mails the confirmation with its links and headers, once', async () => {
    const { email, job } = await subscribe('fr');

    expect(await process(job)).toBe('sent');
    expect(await process(job)).toBe('skipped');

    expect(smtp.received).toHaveLength(1);
    const [{ mail, envelopeTo }] = smtp.received as [(typeof smtp.received)[number]];
    expect(envelopeTo).toEqual([email]);
    expect(mail.messageId).toBe(
      mailMessageId(
        mailIdentityKey(ctx.config.mailLinkSecret),
        `subscriber-${job.data.subscriberId}-1`,
        email,
        'agency.test',
      ),
    );
    expect(mail.text).toContain(`${SITE_URL}/newsletter/confirm?token=`);
    expect(mail.text).toContain(`${SITE_URL}/newsletter/unsubscribe?token=`);
    expect(mail.headerLines.map(({ key }) => key)).toEqual(
      expect.arrayContaining(['list-unsubscribe', 'list-unsubscribe-post']),
    );
    expect(await confirmationMailState(email)).toEqual({ mailState: 'sent' });
  });

  it('sends nothing for a request superseded by a newer one', async () => {
    const { email, job } = await subscribe('en');
    await subscribe('en', email);

    expect(await process(job)).toBe('skipped');
    expect(smtp.received).toHaveLength(0);
  });

  it.each(['confirmed', 'unsubscribed'])(
    'sends nothing to an address that is %s',
    async (status) => {
      const { email, job } = await subscribe('en');
      const subscriber = await findSubscriberByEmail(email);
      if (!subscriber) throw new Error('not stored');
      subscriber.set('status', status);
      await subscriber.save();

      expect(await process(job)).toBe('skipped');
      expect(smtp.received).toHaveLength(0);
    },
  );

  it('skips a subscriber that no longer exists', async () => {
    const job = await ctx.queues.newsletterConfirmation.add('direct', {
      subscriberId: '0'.repeat(24),
      request: 1,
    });

    expect(await process(job)).toBe('skipped');
  });

  it('records a 550 as failed at once, with the reply', async () => {
    smtp.setResponder(() => ({ code: 550, message: '5.1.1 unknown mailbox' }));
    const { email, job } = await subscribe('en');

    await expect(process(job)).rejects.toThrow(UnrecoverableError);

    expect(await confirmationMailState(email)).toEqual({
      mailState: 'failed',
      mailError: '550 5.1.1 unknown mailbox',
    });
  });
});
