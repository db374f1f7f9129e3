import { Writable } from 'node:stream';
import request from 'supertest';
import { pino } from 'pino';
import { Queue } from 'bullmq';
import { QUEUE_NAMES, type OutboxRelayJob } from '@agency/contracts';
import { requestSubscription, UNWATCHED_SUBSCRIBERS } from '@agency/platform';
import { createPipelineContext, type PipelineContext } from '../testing/pipeline-context';
import { outboxRelayProcessor } from './outbox-relay.processor';

/** A logger whose lines the test can read. */
function recordingLogger() {
  const lines: { msg?: unknown }[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()) as { msg?: unknown });
      done();
    },
  });
  return { logger: pino({ level: 'info' }, sink), lines };
}

describe('the outbox relay processor', () => {
  let ctx: PipelineContext;
  beforeAll(async () => {
    ctx = await createPipelineContext();
  });
  afterAll(async () => {
    await ctx.close();
  });

  it('says how much owed mail it enqueued, and stays quiet when there is none', async () => {
    const { logger, lines } = recordingLogger();
    const relay = outboxRelayProcessor({ queues: ctx.queues, pendingAgeMs: 0, logger });
    const relayQueue = new Queue<OutboxRelayJob>(QUEUE_NAMES.outboxRelay, {
      connection: ctx.queues.contactMail.opts.connection,
      prefix: ctx.config.queuePrefix,
    });
    const job = await relayQueue.add(QUEUE_NAMES.outboxRelay, {});
    await relayQueue.close();

    expect(await relay(job)).toEqual({ contacts: 0, newsletterConfirmations: 0 });
    expect(lines).toEqual([]);

    await request(ctx.app.callback()).post('/api/contact').send({
      firstName: 'Nour',
      lastName: 'Hamdi',
      email: 'nour@example.tn',
      service: 'meta-ads',
      message: 'Ads for our summer collection.',
    });
    // What the worker records of a queued subscription request.
    await requestSubscription(
      { email: 'nour@example.tn', locale: 'ar', source: 'newsletter-banner', ip: '203.0.113.5' },
      UNWATCHED_SUBSCRIBERS,
    );

    expect(await relay(job)).toEqual({ contacts: 1, newsletterConfirmations: 1 });
    expect(lines.map(({ msg }) => msg)).toEqual(['outbox relay enqueued owed mail']);
  });
});
