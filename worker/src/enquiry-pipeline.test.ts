import request from 'supertest';
import { findContactById } from '@agency/backend';
import {
  AGENCY_INBOX,
  createPipelineContext,
  type PipelineContext,
} from './testing/pipeline-context';
import { startSmtpSink, type SmtpSink } from './testing/smtp-sink';

const enquiry = {
  firstName: 'Youssef',
  lastName: 'Trabelsi',
  email: 'youssef@example.tn',
  phone: '+216 98 765 432',
  service: 'meta-ads',
  message: 'We sell olive oil online and want <b>more</b> buyers in France.',
};

async function waitForMailState(id: string, state: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if ((await findContactById(id))?.mailState === state) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`contact ${id} never reached mail state ${state}`);
}

describe('enquiry pipeline: API -> MongoDB -> BullMQ -> worker -> SMTP', () => {
  let ctx: PipelineContext;
  let smtp: SmtpSink;

  beforeEach(async () => {
    smtp = await startSmtpSink();
    ctx = await createPipelineContext();
  });
  afterEach(async () => {
    await ctx.close();
    await smtp.close();
  });

  it('mails the agency inbox every submitted field and records the mail as sent', async () => {
    ctx.startWorker(smtp.url);
    const response = await request(ctx.app.callback()).post('/api/contact').send(enquiry);
    expect(response.status).toBe(201);
    const id: string = response.body.id;

    const { mail, envelopeTo } = await smtp.waitFor(({ mail }) => mail.text?.includes(id) ?? false);
    expect(envelopeTo).toEqual([AGENCY_INBOX]);
    expect(mail.subject).toBe('New enquiry: Meta Ads - Youssef Trabelsi');
    expect(mail.replyTo?.text).toContain('youssef@example.tn');
    for (const value of [
      'First name: Youssef',
      'Last name: Trabelsi',
      'Email: youssef@example.tn',
      'Phone: +216 98 765 432',
      'Service: Meta Ads',
      'Language: en',
      enquiry.message,
    ]) {
      expect(mail.text).toContain(value);
    }
    // Visitor text is data, never markup, in the HTML part.
    expect(mail.html).toContain('&lt;b&gt;more&lt;/b&gt;');
    expect(mail.html).not.toContain('<b>more</b>');
    await waitForMailState(id, 'sent');
  });

  it('keeps the mail pending while no worker runs, and sends it once one starts', async () => {
    const response = await request(ctx.app.callback()).post('/api/contact').send(enquiry);
    expect(response.status).toBe(201);
    const id: string = response.body.id;

    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await findContactById(id))?.mailState).toBe('pending');
    expect(smtp.received).toHaveLength(0);

    ctx.startWorker(smtp.url);
    await smtp.waitFor(({ mail }) => mail.text?.includes(id) ?? false);
    await waitForMailState(id, 'sent');
    expect(smtp.received).toHaveLength(1);
  });
});

describe('enquiry pipeline when the SMTP server refuses mail', () => {
  let ctx: PipelineContext;
  let smtp: SmtpSink;

  beforeAll(async () => {
    smtp = await startSmtpSink({ reject: true });
    // Two quick attempts instead of the production schedule of eight.
    ctx = await createPipelineContext({ attempts: 2, backoff: { type: 'fixed', delay: 100 } });
  });
  afterAll(async () => {
    await ctx.close();
    await smtp.close();
  });

  it('records the mail as failed once every retry is used up', async () => {
    ctx.startWorker(smtp.url);
    const response = await request(ctx.app.callback()).post('/api/contact').send(enquiry);
    const id: string = response.body.id;

    await waitForMailState(id, 'failed');
    const contact = await findContactById(id);
    expect(contact?.mailError).toContain('mailbox unavailable');
    expect(smtp.received).toHaveLength(0);
  });
});
