import request from 'supertest';
import type { QueueEvents } from 'bullmq';
import { QUEUE_NAMES, contactMailJobId, newsletterConfirmationJobId } from '@agency/contracts';
import { createRedisConnection, findSubscriberByEmail } from '@agency/platform';
import { createPipelineContext, type PipelineContext } from '../testing/pipeline-context';
import { startOwnRedis, type OwnRedis } from '@agency/platform/testing/own-redis';
import { startSmtpSink, type SmtpSink } from '../testing/smtp-sink';
import { confirmationMailState, contactMailStates } from '../testing/mail-states';

// Each test's own waits (every mail within 30 s, each job within 20 s, two
// relay passes within 20 s) say which step failed; the test's limit stays
// above their sum so that a slow, loaded run reaches them instead of
// stopping at jest's 30 s default.
jest.setTimeout(120_000);

/** What the issue promises a visitor: an answer within 3 s, whatever Redis does. */
const ANSWER_WITHIN_MS = 3000;

const enquiries = [
  {
    firstName: 'Rania',
    lastName: 'Gharbi',
    email: 'rania@example.tn',
    service: 'analytics',
    message: 'Our dashboards tell us nothing useful.',
    locale: 'fr',
  },
  {
    firstName: 'Omar',
    lastName: 'Zaied',
    email: 'omar@example.tn',
    service: 'web-design',
    message: 'A shop for our handmade rugs.',
    locale: 'ar',
  },
];
const subscriptions = [
  { email: 'first.reader@example.tn', locale: 'en' },
  { email: 'second.reader@example.tn', locale: 'fr' },
];
/** Each enquiry owes two mails (agency, visitor), each subscription one. */
const MAILS_OWED = enquiries.length * 2 + subscriptions.length;

/** Resolves after the relay's job scheduler has completed `count` more passes. */
function relayPasses(events: QueueEvents, count: number): Promise<void> {
  return new Promise((resolve, reject) => {
    let seen = 0;
    const timer = setTimeout(() => reject(new Error(`fewer than ${count} relay passes`)), 20_000);
    const onCompleted = () => {
      seen += 1;
      if (seen < count) return;
      clearTimeout(timer);
      events.off('completed', onCompleted);
      resolve();
    };
    events.on('completed', onCompleted);
  });
}

describe('mail is never lost or doubled while Redis is away', () => {
  let redis: OwnRedis;
  let smtp: SmtpSink;
  let ctx: PipelineContext;
  let relayEvents: QueueEvents;

  beforeEach(async () => {
    redis = await startOwnRedis();
    smtp = await startSmtpSink();
    ctx = await createPipelineContext({ redisUrl: redis.url });
    relayEvents = await ctx.queueEvents(QUEUE_NAMES.outboxRelay);
    await ctx.startWorker({ smtpUrl: smtp.url, relayIntervalMs: 250, pendingAgeMs: 0 });
  });
  afterEach(async () => {
    redis.thaw();
    await redis.start();
    await ctx.close();
    await redis.close();
    await smtp.close();
  });

  /** Sends every enquiry and subscription at once; returns each answer and how long it took. */
  async function submitEverything() {
    const timed = async (send: () => request.Test) => {
      const started = performance.now();
      const response = await send();
      return { status: response.status, body: response.body, ms: performance.now() - started };
    };
    const api = () => request(ctx.app.callback());
    return Promise.all([
      ...enquiries.map((enquiry) => timed(() => api().post('/api/contact').send(enquiry))),
      ...subscriptions.map((subscription) =>
        timed(() => api().post('/api/newsletter').send(subscription)),
      ),
    ]);
  }

  /** Every owed mail arrives exactly once, and stays so through later relay passes. */
  async function expectEachMailOnce(contactIds: string[]): Promise<void> {
    await smtp.waitForCount(MAILS_OWED, () => true, 30_000);

    const contactEvents = await ctx.queueEvents(QUEUE_NAMES.contactMail);
    const confirmationEvents = await ctx.queueEvents(QUEUE_NAMES.newsletterConfirmation);
    for (const id of contactIds) {
      const job = await ctx.queues.contactMail.getJob(contactMailJobId(id));
      await job?.waitUntilFinished(contactEvents, 20_000);
      expect(await contactMailStates(id)).toMatchObject({
        mailState: 'sent',
        acknowledgementState: 'sent',
      });
    }
    for (const { email } of subscriptions) {
      const subscriber = await findSubscriberByEmail(email);
      const job = await ctx.queues.newsletterConfirmation.getJob(
        newsletterConfirmationJobId(subscriber?.id as string, 1),
      );
      await job?.waitUntilFinished(confirmationEvents, 20_000);
      expect((await confirmationMailState(email)).mailState).toBe('sent');
    }

    // Nothing is owed any more: further relay passes must not mail anyone again.
    await relayPasses(relayEvents, 2);
    const messageIds = smtp.received.map(({ mail }) => mail.messageId);
    expect(messageIds).toHaveLength(MAILS_OWED);
    expect(new Set(messageIds).size).toBe(MAILS_OWED);
    const recipients = smtp.received.flatMap(({ envelopeTo }) => envelopeTo);
    for (const { email } of [...enquiries, ...subscriptions]) expect(recipients).toContain(email);
  }

  it('stores everything while Redis is stopped and mails each once after it restarts empty', async () => {
    await redis.stop();

    const answers = await submitEverything();

    expect(answers.map(({ status }) => status)).toEqual([201, 201, 202, 202]);
    const contactIds = answers.slice(0, enquiries.length).map(({ body }) => body.id as string);
    for (const id of contactIds) {
      expect((await contactMailStates(id)).mailState).toBe('pending');
    }
    expect(smtp.received).toHaveLength(0);

    // Back without any of its data: the queues and the relay's schedule are gone too.
    await redis.start();
    await expectEachMailOnce(contactIds);
  });

  it('mails each once when Redis is emptied under the running worker (FLUSHALL)', async () => {
    // Paused queues keep the jobs waiting in Redis, where FLUSHALL loses them.
    await ctx.queues.contactMail.pause();
    await ctx.queues.newsletterConfirmation.pause();
    const answers = await submitEverything();
    expect(answers.map(({ status }) => status)).toEqual([201, 201, 202, 202]);
    const contactIds = answers.slice(0, enquiries.length).map(({ body }) => body.id as string);
    expect(await ctx.queues.contactMail.getWaitingCount()).toBe(enquiries.length);

    // No connection drops: only a look at Redis shows that the relay's schedule is gone.
    const admin = createRedisConnection(redis.url, 'consumer');
    try {
      await admin.flushall();
    } finally {
      admin.disconnect();
    }
    await expectEachMailOnce(contactIds);
  });

  it('answers every request within 3 s while Redis is frozen, then mails each once', async () => {
    redis.freeze();

    const answers = await submitEverything();

    expect(answers.map(({ status }) => status)).toEqual([201, 201, 202, 202]);
    for (const { ms } of answers) expect(ms).toBeLessThan(ANSWER_WITHIN_MS);
    const contactIds = answers.slice(0, enquiries.length).map(({ body }) => body.id as string);

    redis.thaw();
    await expectEachMailOnce(contactIds);
  });
});
