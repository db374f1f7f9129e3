import request from 'supertest';
import type { QueueEvents } from 'bullmq';
import { QUEUE_NAMES, contactMailJobId } from '@agency/contracts';
import { mailIdentityKey, mailMessageId } from '@agency/platform';
import {
  AGENCY_INBOX,
  createPipelineContext,
  type PipelineContext,
} from '../testing/pipeline-context';
import { startSmtpSink, type SmtpResponder, type SmtpSink } from '../testing/smtp-sink';
import { contactMailStates } from '../testing/mail-states';

const enquiry = {
  firstName: 'Leila',
  lastName: 'Mansour',
  email: 'leila@example.tn',
  service: 'branding',
  message: 'A new identity for our chain of cafés, please.',
};

const TRY_LATER = { code: 451, message: '4.3.0 Mailbox busy, try again later' };
const NO_SUCH_USER = { code: 550, message: '5.1.1 <leila@example.tn>: Recipient address rejected' };

/** Refuses the visitor's acknowledgement with `reply` on the attempts `refuse` picks. */
function refuseAcknowledgement(
  reply: { code: number; message: string },
  refuse: (attempt: number) => boolean,
): SmtpResponder {
  return (mail, attempt) =>
    mail.messageId?.startsWith('<contact-ack-') && refuse(attempt) ? reply : undefined;
}

describe('SMTP replies', () => {
  let ctx: PipelineContext;
  let smtp: SmtpSink;
  let events: QueueEvents;

  beforeEach(async () => {
    smtp = await startSmtpSink();
    // Three quick attempts instead of the production schedule of eight.
    ctx = await createPipelineContext({
      jobOptions: { attempts: 3, backoff: { type: 'exponential', delay: 50 } },
    });
    events = await ctx.queueEvents(QUEUE_NAMES.contactMail);
    await ctx.startWorker({ smtpUrl: smtp.url });
  });
  afterEach(async () => {
    await ctx.close();
    await smtp.close();
  });

  async function submitEnquiry() {
    const response = await request(ctx.app.callback()).post('/api/contact').send(enquiry);
    expect(response.status).toBe(201);
    const id: string = response.body.id;
    const job = await ctx.queues.contactMail.getJob(contactMailJobId(id));
    if (!job) throw new Error('the enquiry was not enqueued');
    return { id, job };
  }

  /** The acknowledgement's Message-ID, as the worker writes it: the SMTP sink counts attempts by it. */
  const acknowledgementOf = (id: string) =>
    mailMessageId(
      mailIdentityKey(ctx.config.mailLinkSecret),
      `contact-ack-${id}`,
      enquiry.email,
      'agency.test',
    );

  it('retries a 451 and delivers the mail once the server accepts it', async () => {
    smtp.setResponder(refuseAcknowledgement(TRY_LATER, (attempt) => attempt === 1));
    const { id, job } = await submitEnquiry();

    expect(await job.waitUntilFinished(events, 20_000)).toEqual({
      notification: 'skipped',
      acknowledgement: 'sent',
    });
    // Two attempts in all: the refused one, then the accepted one.
    const retried = await ctx.queues.contactMail.getJob(job.id ?? '');
    expect(retried?.attemptsMade).toBe(2);
    // The agency got its mail on the first attempt and never again; the visitor got one.
    expect(smtp.received.map(({ envelopeTo }) => envelopeTo)).toEqual([
      [AGENCY_INBOX],
      [enquiry.email],
    ]);
    expect(smtp.attempts.get(acknowledgementOf(id))).toBe(2);
    expect(await contactMailStates(id)).toMatchObject({
      mailState: 'sent',
      acknowledgementState: 'sent',
    });
    expect((await contactMailStates(id)).acknowledgementError).toBeUndefined();
  });

  it('records a 550 as failed at once, with the reply, and does not retry it', async () => {
    smtp.setResponder(refuseAcknowledgement(NO_SUCH_USER, () => true));
    const { id, job } = await submitEnquiry();

    await expect(job.waitUntilFinished(events, 20_000)).rejects.toThrow(
      '550 5.1.1 <leila@example.tn>: Recipient address rejected',
    );
    const failed = await ctx.queues.contactMail.getJob(job.id ?? '');
    expect(failed?.attemptsMade).toBe(1);
    expect(smtp.attempts.get(acknowledgementOf(id))).toBe(1);
    const contact = await contactMailStates(id);
    expect(contact.mailState).toBe('sent');
    expect(contact.acknowledgementState).toBe('failed');
    expect(contact.acknowledgementError).toBe(
      '550 5.1.1 <leila@example.tn>: Recipient address rejected',
    );
  });

  it('records a transient failure only once every attempt is used', async () => {
    smtp.setResponder(refuseAcknowledgement(TRY_LATER, () => true));
    const { id, job } = await submitEnquiry();

    await expect(job.waitUntilFinished(events, 20_000)).rejects.toThrow('451');
    expect(smtp.attempts.get(acknowledgementOf(id))).toBe(3);
    const contact = await contactMailStates(id);
    expect(contact.acknowledgementState).toBe('failed');
    expect(contact.acknowledgementError).toContain('451 4.3.0 Mailbox busy');
    expect(contact.mailState).toBe('sent');
  });
});
