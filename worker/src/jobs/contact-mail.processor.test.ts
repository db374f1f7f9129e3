import request from 'supertest';
import { UnrecoverableError, type Job } from 'bullmq';
import type { ContactMailJob } from '@agency/contracts';
import { createLogger, findContactForMail, mailIdentityKey, mailMessageId } from '@agency/platform';
import { OwedMailModel } from '@agency/platform/testing/outbox-models';
import { createMailTransport, type MailTransport } from '../mail/transport';
import {
  AGENCY_INBOX,
  createPipelineContext,
  type PipelineContext,
} from '../testing/pipeline-context';
import { startSmtpSink, type SmtpSink } from '../testing/smtp-sink';
import { contactMailProcessor } from './contact-mail.processor';
import { contactMailStates, outboxEntries } from '../testing/mail-states';

const enquiry = {
  firstName: 'Mehdi',
  lastName: 'Khelifi',
  email: 'mehdi@example.tn',
  service: 'branding',
  message: 'A logo and a style guide for our start-up.',
  locale: 'ar',
};

/**
 * The processor on its own, called the way BullMQ calls it (a real job from
 * a real queue), against MongoDB and an SMTP server: the quick check of each
 * decision it makes. The pipeline tests run it inside a worker.
 */
describe('the enquiry mail processor', () => {
  let ctx: PipelineContext;
  let smtp: SmtpSink;
  let transport: MailTransport;
  let process: (job: Job<ContactMailJob>) => Promise<unknown>;

  beforeAll(async () => {
    ctx = await createPipelineContext();
  });
  afterAll(async () => {
    await ctx.close();
  });
  beforeEach(async () => {
    smtp = await startSmtpSink();
    transport = createMailTransport(smtp.url);
    process = contactMailProcessor({
      transport,
      mailFrom: 'Agency <no-reply@agency.test>',
      mailTo: AGENCY_INBOX,
      messageIdDomain: 'agency.test',
      identityKey: mailIdentityKey(ctx.config.mailLinkSecret),
      agencyTimeZone: () => Promise.resolve('Asia/Tokyo'),
      logger: createLogger('test', 'silent'),
    });
  });
  afterEach(async () => {
    transport.close();
    await smtp.close();
  });

  /** Stores an enquiry through the API and returns a job for it with `attempts` allowed. */
  async function jobForNewEnquiry(attempts = 3): Promise<Job<ContactMailJob>> {
    const { body } = await request(ctx.app.callback()).post('/api/contact').send(enquiry);
    const contactId = String(body.id);
    return ctx.queues.contactMail.add(
      'direct',
      { contactId },
      { jobId: `direct-${contactId}`, attempts },
    );
  }

  it('sends the agency notification, then the visitor acknowledgement, and records both', async () => {
    const job = await jobForNewEnquiry();

    expect(await process(job)).toEqual({ notification: 'sent', acknowledgement: 'sent' });

    expect(smtp.received.map(({ envelopeTo }) => envelopeTo)).toEqual([
      [AGENCY_INBOX],
      [enquiry.email],
    ]);
    const [notification, acknowledgement] = smtp.received.map(({ mail }) => mail);
    // Each names its mail and, by a digest keyed with the installation's secret, its recipient.
    const key = mailIdentityKey(ctx.config.mailLinkSecret);
    expect(notification?.messageId).toBe(
      mailMessageId(key, `contact-${job.data.contactId}`, AGENCY_INBOX, 'agency.test'),
    );
    expect(notification?.messageId).toMatch(/^<contact-[0-9a-f]{24}-k[0-9a-f]{20}@agency\.test>$/);
    expect(notification?.replyTo?.value).toEqual([
      { name: 'Mehdi Khelifi', address: 'mehdi@example.tn' },
    ]);
    expect(acknowledgement?.messageId).toBe(
      mailMessageId(key, `contact-ack-${job.data.contactId}`, enquiry.email, 'agency.test'),
    );
    expect(acknowledgement?.subject).toBe('لقد تلقينا طلبك');
    expect(acknowledgement?.text?.startsWith('مرحبًا Mehdi،')).toBe(true);
    expect(acknowledgement?.replyTo?.text).toBe(AGENCY_INBOX);
    expect(await contactMailStates(job.data.contactId)).toMatchObject({
      mailState: 'sent',
      acknowledgementState: 'sent',
    });
  });

  it("tells the agency when the enquiry came in on the agency's clock, its zone named", async () => {
    const job = await jobForNewEnquiry();
    const stored = await findContactForMail(job.data.contactId);
    const at = new Date(stored?.createdAt ?? '');

    await process(job);

    const notification = smtp.received.find(({ envelopeTo }) => envelopeTo[0] === AGENCY_INBOX);
    const received = /^Received: (.+)$/m.exec(notification?.mail.text ?? '')?.[1];
    // Tokyo is UTC+9 all year: the mail names it, and its hour is nine hours ahead of UTC.
    const hour = (at.getUTCHours() + 9) % 24;
    const minute = String(at.getUTCMinutes()).padStart(2, '0');
    expect(received).toMatch(
      new RegExp(
        `^[A-Z][a-z]{2} \\d{1,2}, \\d{4}, ${hour % 12 || 12}:${minute} ${hour < 12 ? 'AM' : 'PM'} GMT\\+9$`,
      ),
    );
    expect(notification?.mail.html).toContain(`<td>${received}</td>`);
  });

  it('names the agency inbox by its address alone when MAIL_TO carries a display name', async () => {
    const named = contactMailProcessor({
      transport,
      mailFrom: 'Agency <no-reply@agency.test>',
      mailTo: `Agency Inbox <${AGENCY_INBOX}>`,
      messageIdDomain: 'agency.test',
      identityKey: mailIdentityKey(ctx.config.mailLinkSecret),
      agencyTimeZone: () => Promise.resolve('Asia/Tokyo'),
      logger: createLogger('test', 'silent'),
    });
    const job = await jobForNewEnquiry();

    await named(job);

    const notification = smtp.received.find(({ envelopeTo }) => envelopeTo[0] === AGENCY_INBOX);
    // A report on the inbox's bounce names the bare address: the digest is of that.
    expect(notification?.mail.messageId).toBe(
      mailMessageId(
        mailIdentityKey(ctx.config.mailLinkSecret),
        `contact-${job.data.contactId}`,
        AGENCY_INBOX,
        'agency.test',
      ),
    );
  });

  it('sends nothing again for an enquiry whose mails went out, and leaves its outbox entry to the relay', async () => {
    const job = await jobForNewEnquiry();
    await process(job);
    // The relay takes it out once it sees the job completed (one delete per pass).
    expect(await outboxEntries()).toContain(`contact:${job.data.contactId}`);

    expect(await process(job)).toEqual({ notification: 'skipped', acknowledgement: 'skipped' });
    expect(smtp.received).toHaveLength(2);
  });

  it('sends nothing again once the relay took the enquiry out of the outbox', async () => {
    const job = await jobForNewEnquiry();
    await process(job);
    await OwedMailModel.deleteOne({ _id: `contact:${job.data.contactId}` });

    expect(await process(job)).toBe('skipped');
    expect(smtp.received).toHaveLength(2);
  });

  /** The API's own job for a new enquiry: it carries what the mails are written from. */
  async function apiJobForNewEnquiry(): Promise<Job<ContactMailJob>> {
    const { body } = await request(ctx.app.callback()).post('/api/contact').send(enquiry);
    const job = await ctx.queues.contactMail.getJob(`contact-${String(body.id)}`);
    if (!job?.data.mail) throw new Error('the API enqueues the enquiry with its mail content');
    return job;
  }

  it('sends a new enquiry from its job alone, on the first run, without reading the store', async () => {
    const job = await apiJobForNewEnquiry();
    // Nothing left in the store to read: the first run must not need it.
    await OwedMailModel.deleteOne({ _id: `contact:${job.data.contactId}` });

    expect(await process(job)).toEqual({ notification: 'sent', acknowledgement: 'sent' });
    expect(smtp.received.map(({ envelopeTo }) => envelopeTo)).toEqual([
      [AGENCY_INBOX],
      [enquiry.email],
    ]);
    expect(smtp.received[1]?.mail.subject).toBe('لقد تلقينا طلبك');
  });

  it('reads the receipts before sending again when the job carrying the enquiry is retried', async () => {
    smtp.setResponder((mail) =>
      mail.messageId?.startsWith('<contact-ack-')
        ? { code: 451, message: '4.7.1 later' }
        : undefined,
    );
    const job = await apiJobForNewEnquiry();
    await expect(process(job)).rejects.toThrow('451 4.7.1 later');
    smtp.setResponder(undefined);
    // As BullMQ hands the job back for its retry.
    job.attemptsMade = 1;

    expect(await process(job)).toEqual({ notification: 'skipped', acknowledgement: 'sent' });
    expect(smtp.received.map(({ envelopeTo }) => envelopeTo)).toEqual([
      [AGENCY_INBOX],
      [enquiry.email],
    ]);
  });

  it('reads the receipts before sending again when the job carrying the enquiry is replayed after a stall', async () => {
    const job = await apiJobForNewEnquiry();
    await process(job);
    // As BullMQ hands back the job of a worker that died before completing it.
    job.stalledCounter = 1;

    expect(await process(job)).toEqual({ notification: 'skipped', acknowledgement: 'skipped' });
    expect(smtp.received).toHaveLength(2);
  });

  it('takes out of the outbox an enquiry whose mail ended refused', async () => {
    smtp.setResponder(() => ({ code: 550, message: '5.1.1 no such user' }));
    const job = await jobForNewEnquiry(8);

    await expect(process(job)).rejects.toThrow(UnrecoverableError);

    expect(await outboxEntries()).not.toContain(`contact:${job.data.contactId}`);
  });

  it('skips an enquiry that no longer exists', async () => {
    const job = await ctx.queues.contactMail.add('direct', { contactId: '0'.repeat(24) });

    expect(await process(job)).toBe('skipped');
    expect(smtp.received).toHaveLength(0);
  });

  it('leaves a mail refused with 451 owed for the retry, while the other goes out', async () => {
    smtp.setResponder((mail) =>
      mail.messageId?.startsWith('<contact-ack-')
        ? { code: 451, message: '4.7.1 later' }
        : undefined,
    );
    const job = await jobForNewEnquiry(3);

    await expect(process(job)).rejects.toThrow('451 4.7.1 later');

    expect(await contactMailStates(job.data.contactId)).toMatchObject({
      mailState: 'sent',
      acknowledgementState: 'pending',
    });
    smtp.setResponder(undefined);
    expect(await process(job)).toEqual({ notification: 'skipped', acknowledgement: 'sent' });
  });

  it('records a 451 on the last attempt as failed, with the reply', async () => {
    smtp.setResponder(() => ({ code: 451, message: '4.7.1 later' }));
    const job = await jobForNewEnquiry(1);

    await expect(process(job)).rejects.toThrow('451 4.7.1 later');

    const contact = await contactMailStates(job.data.contactId);
    expect(contact).toMatchObject({ mailState: 'failed', acknowledgementState: 'failed' });
    expect(contact.mailError).toBe('451 4.7.1 later');
  });

  it('records a 550 as failed at once and ends the job without retry', async () => {
    smtp.setResponder((mail) =>
      mail.messageId?.startsWith('<contact-ack-')
        ? { code: 550, message: '5.1.1 <mehdi@example.tn>: no such user' }
        : undefined,
    );
    const job = await jobForNewEnquiry(8);

    const run = process(job);
    await expect(run).rejects.toThrow(UnrecoverableError);
    await expect(run).rejects.toThrow(
      'acknowledgement: 550 5.1.1 <mehdi@example.tn>: no such user',
    );

    const contact = await contactMailStates(job.data.contactId);
    expect(contact).toMatchObject({ mailState: 'sent', acknowledgementState: 'failed' });
    expect(contact.acknowledgementError).toBe('550 5.1.1 <mehdi@example.tn>: no such user');
  });
});
