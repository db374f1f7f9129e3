import request from 'supertest';
import { Queue, type QueueEvents } from 'bullmq';
import { OUTBOX_RELAY_SCHEDULER_ID, QUEUE_NAMES, contactMailJobId } from '@agency/contracts';
import { createPipelineContext, type PipelineContext } from '../testing/pipeline-context';
import { startSmtpSink, type SmtpSink } from '../testing/smtp-sink';
import { contactMailStates, outboxEntries } from '../testing/mail-states';

const enquiry = {
  firstName: 'Hedi',
  lastName: 'Ayari',
  email: 'hedi@example.tn',
  service: 'content-creation',
  message: 'Monthly videos for our gym.',
};

/** Resolves once `count` more relay passes have completed. */
function passesCompleted(events: QueueEvents, count: number): Promise<void> {
  return new Promise((resolve) => {
    let left = count;
    const onCompleted = () => {
      left -= 1;
      if (left > 0) return;
      events.off('completed', onCompleted);
      resolve();
    };
    events.on('completed', onCompleted);
  });
}

describe('the outbox relay in the worker', () => {
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

  it('is one job scheduler however many workers run', async () => {
    await ctx.startWorker({ smtpUrl: smtp.url, relayIntervalMs: 5000 });
    await ctx.startWorker({ smtpUrl: smtp.url, relayIntervalMs: 5000 });
    const relayQueue = new Queue(QUEUE_NAMES.outboxRelay, {
      connection: ctx.queues.contactMail.opts.connection,
      prefix: ctx.config.queuePrefix,
    });
    try {
      const schedulers = await relayQueue.getJobSchedulers();
      expect(schedulers.map(({ key, every }) => ({ key, every }))).toEqual([
        { key: OUTBOX_RELAY_SCHEDULER_ID, every: 5000 },
      ]);
    } finally {
      await relayQueue.close();
    }
  });

  it('sends the mails of an enquiry whose job never reached Redis, once', async () => {
    const id: string = (await request(ctx.app.callback()).post('/api/contact').send(enquiry)).body
      .id;
    // As if the API had died between storing the enquiry and enqueueing its mails.
    await (await ctx.queues.contactMail.getJob(contactMailJobId(id)))?.remove();
    const relayEvents: QueueEvents = await ctx.queueEvents(QUEUE_NAMES.outboxRelay);
    const firstPass = new Promise((resolve) => relayEvents.once('completed', resolve));

    await ctx.startWorker({ smtpUrl: smtp.url, relayIntervalMs: 100, pendingAgeMs: 0 });

    expect(await firstPass).toMatchObject({
      returnvalue: { contacts: 1, newsletterConfirmations: 0 },
    });
    await smtp.waitForCount(2);
    const contactEvents = await ctx.queueEvents(QUEUE_NAMES.contactMail);
    const job = await ctx.queues.contactMail.getJob(contactMailJobId(id));
    expect(await job?.waitUntilFinished(contactEvents, 20_000)).toEqual({
      notification: 'sent',
      acknowledgement: 'sent',
    });
    expect(await contactMailStates(id)).toMatchObject({
      mailState: 'sent',
      acknowledgementState: 'sent',
    });
    // Settled: a pass that starts after the job completed takes it out of the outbox.
    await passesCompleted(relayEvents, 2);
    expect(await outboxEntries()).not.toContain(`contact:${id}`);
    expect(smtp.received).toHaveLength(2);
  });
});
