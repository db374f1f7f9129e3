import request from 'supertest';
import type { Queue, QueueEvents } from 'bullmq';
import { QUEUE_NAMES, contactMailJobId } from '@agency/contracts';
import {
  AGENCY_INBOX,
  createPipelineContext,
  type PipelineContext,
} from '../testing/pipeline-context';
import { readAgencySettings, saveAgencySettings } from '@agency/platform';
import { startSmtpSink, type SmtpSink } from '../testing/smtp-sink';
import { contactMailStates } from '../testing/mail-states';

const enquiry = {
  firstName: 'Youssef',
  lastName: 'Trabelsi',
  email: 'youssef@example.tn',
  phone: '+216 98 765 432',
  service: 'meta-ads',
  message: 'We sell olive oil online and want <b>more</b> buyers in France.',
};

/** Resolves with the job's result once it has finished (or at once if it already has). */
async function finished(queue: Queue, jobId: string, events: QueueEvents): Promise<unknown> {
  const job = await queue.getJob(jobId);
  if (!job) throw new Error(`no job ${jobId} in ${queue.name}`);
  return job.waitUntilFinished(events, 20_000);
}

describe('enquiry pipeline: API -> MongoDB -> BullMQ -> worker -> SMTP', () => {
  let ctx: PipelineContext;
  let smtp: SmtpSink;
  let contactMailEvents: QueueEvents;

  const post = (body: object) => request(ctx.app.callback()).post('/api/contact').send(body);
  const mailsFinished = (id: string) =>
    finished(ctx.queues.contactMail, contactMailJobId(id), contactMailEvents);
  const BOTH_SENT = { notification: 'sent', acknowledgement: 'sent' };

  beforeEach(async () => {
    smtp = await startSmtpSink();
    ctx = await createPipelineContext();
    contactMailEvents = await ctx.queueEvents(QUEUE_NAMES.contactMail);
  });
  afterEach(async () => {
    await ctx.close();
    await smtp.close();
  });

  it('mails the agency inbox every submitted field and records the mail as sent', async () => {
    await ctx.startWorker({ smtpUrl: smtp.url });
    const response = await post(enquiry);
    expect(response.status).toBe(201);
    const id: string = response.body.id;

    expect(await mailsFinished(id)).toEqual(BOTH_SENT);
    const { mail } = await smtp.waitFor(({ envelopeTo }) => envelopeTo.includes(AGENCY_INBOX));
    expect(mail.subject).toBe('New enquiry: Meta Ads - Youssef Trabelsi');
    expect(mail.replyTo?.text).toContain('youssef@example.tn');
    for (const value of [
      'First name: Youssef',
      'Last name: Trabelsi',
      'Email: youssef@example.tn',
      'Phone: +216 98 765 432',
      'Service: Meta Ads',
      'Language: en',
      `Enquiry id: ${id}`,
      enquiry.message,
    ]) {
      expect(mail.text).toContain(value);
    }
    // When it came in, on the agency's clock (AGENCY_TIME_ZONE, Tunis: UTC+1 all year), named.
    expect(mail.text).toMatch(
      /^Received: [A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2} [AP]M GMT\+1$/m,
    );
    // Visitor text is data, never markup, in the HTML part.
    expect(mail.html).toContain('&lt;b&gt;more&lt;/b&gt;');
    expect(mail.html).not.toContain('<b>more</b>');
    expect((await contactMailStates(id)).mailState).toBe('sent');
  });

  it('acknowledges the enquiry to the visitor in their language, with the promised 24 hours', async () => {
    await ctx.startWorker({ smtpUrl: smtp.url });
    const response = await post({ ...enquiry, locale: 'fr' });
    const id: string = response.body.id;

    expect(await mailsFinished(id)).toEqual(BOTH_SENT);
    const { mail } = await smtp.waitFor(({ envelopeTo }) => envelopeTo.includes(enquiry.email));
    expect(mail.subject).toBe('Nous avons bien reçu votre demande');
    expect(mail.text).toContain(
      'Ravis de vous aider à transformer votre présence digitale ! Vous recevrez une réponse détaillée sous 24 heures',
    );
    expect(mail.text).toContain('Publicité Meta');
    expect(mail.html).toContain('<html lang="fr" dir="ltr">');
    // Replies reach the agency. The visitor is greeted by a first name that
    // reads as one; nothing else they typed is mailed back to the address given.
    expect(mail.replyTo?.text).toContain(AGENCY_INBOX);
    expect(mail.text?.startsWith('Bonjour Youssef,')).toBe(true);
    expect(mail.text).not.toContain('olive oil');
    expect(mail.text).not.toContain('Trabelsi');
    const contact = await contactMailStates(id);
    expect(contact.acknowledgementState).toBe('sent');
    expect(contact.acknowledgementSentAt).toBeInstanceOf(Date);
  });

  it('keeps both mails pending while no worker runs, and sends each once when one starts', async () => {
    const response = await post(enquiry);
    expect(response.status).toBe(201);
    const id: string = response.body.id;
    expect(await contactMailStates(id)).toMatchObject({
      mailState: 'pending',
      acknowledgementState: 'pending',
    });

    await ctx.startWorker({ smtpUrl: smtp.url });
    expect(await mailsFinished(id)).toEqual(BOTH_SENT);
    expect(smtp.received.map(({ envelopeTo }) => envelopeTo).sort()).toEqual([
      [AGENCY_INBOX],
      [enquiry.email],
    ]);
    expect(await contactMailStates(id)).toMatchObject({
      mailState: 'sent',
      acknowledgementState: 'sent',
    });
  });

  it('sends nothing when a job for an enquiry is delivered again after its mail went out', async () => {
    await ctx.startWorker({ smtpUrl: smtp.url });
    const id: string = (await post(enquiry)).body.id;
    expect(await mailsFinished(id)).toEqual(BOTH_SENT);
    expect(smtp.received).toHaveLength(2);

    // A replayed job (a restored Redis, a relay after the first job was cleaned up).
    const replay = await ctx.queues.contactMail.add(
      'replay',
      { contactId: id },
      { jobId: `replay-${id}` },
    );

    // Both receipts stand (the outbox entry waits for the relay's next pass): nothing to send.
    expect(await replay.waitUntilFinished(contactMailEvents, 20_000)).toEqual({
      notification: 'skipped',
      acknowledgement: 'skipped',
    });
    expect(smtp.received).toHaveLength(2);
  });

  it('says when the enquiry came in on the clock an admin saved, without a worker restart', async () => {
    await ctx.startWorker({ smtpUrl: smtp.url });
    const first: string = (await post(enquiry)).body.id;
    expect(await mailsFinished(first)).toEqual(BOTH_SENT);

    // An admin moves the agency to Tokyo (UTC+9 all year) while the worker runs.
    const { languages, senders, defaultFrom, replyTo, postalAddress, defaultLocale } =
      await readAgencySettings();
    await saveAgencySettings(
      {
        languages,
        senders,
        defaultFrom,
        replyTo,
        postalAddress,
        defaultLocale,
        timeZone: 'Asia/Tokyo',
      },
      'admin',
    );
    const second: string = (await post({ ...enquiry, email: 'amel@example.tn' })).body.id;
    expect(await mailsFinished(second)).toEqual(BOTH_SENT);

    const notifications = smtp.received.filter(({ envelopeTo }) =>
      envelopeTo.includes(AGENCY_INBOX),
    );
    const received = notifications.map(({ mail }) => /^Received: .*$/m.exec(mail.text ?? '')?.[0]);
    expect(received).toEqual([
      expect.stringMatching(/ GMT\+1$/),
      expect.stringMatching(/ GMT\+9$/),
    ]);
  });
});
