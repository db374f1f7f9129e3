import request from 'supertest';
import {
  createStalePeople,
  stalePeopleKey,
  type Redis,
  createRedisConnection,
} from '@agency/platform';
import { PersonModel } from '@agency/platform/testing/audience-models';
import { createPipelineContext, type PipelineContext } from '../testing/pipeline-context';
import { startSmtpSink, type SmtpSink } from '../testing/smtp-sink';

/**
 * A visitor's enquiry only marks its address (person-stale.ts): the worker's
 * pass recomputes the person, with no screen of the dashboard read meanwhile.
 */
let smtp: SmtpSink;
let ctx: PipelineContext;
let redis: Redis;

beforeAll(async () => {
  smtp = await startSmtpSink();
  ctx = await createPipelineContext();
  await ctx.startWorker({ smtpUrl: smtp.url });
  redis = createRedisConnection(ctx.config.redisUrl, 'producer');
}, 60_000);

afterAll(async () => {
  redis.disconnect();
  await ctx.close();
  await smtp.close();
});

async function personWithin(email: string, ms: number) {
  const deadline = Date.now() + ms;
  for (;;) {
    const person = await PersonModel.findById(email).lean();
    if (person || Date.now() > deadline) return person;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('the people of the addresses visitors write', () => {
  it("are recomputed by the worker's pass, which empties the marked set", async () => {
    const stored = await request(ctx.app.callback()).post('/api/contact').send({
      firstName: 'Hela',
      lastName: 'Mansour',
      email: 'Hela@Example.tn',
      service: 'branding',
      message: 'We would like more visitors on our site.',
      newsletterConsent: true,
    });
    expect(stored.status).toBe(201);

    expect(await personWithin('hela@example.tn', 10_000)).toMatchObject({
      sources: ['contact'],
      consent: 'given',
    });
    expect(await redis.scard(stalePeopleKey(ctx.config.queuePrefix))).toBe(0);
  });

  it('takes addresses marked by any process, a batch at a time', async () => {
    const stale = createStalePeople(redis, ctx.config.queuePrefix);
    // No record holds these: the pass finds nothing to keep, and the set empties all the same.
    await stale.mark(Array.from({ length: 2500 }, (_, index) => `nobody-${index}@example.tn`));

    const deadline = Date.now() + 15_000;
    while ((await redis.scard(stalePeopleKey(ctx.config.queuePrefix))) > 0) {
      if (Date.now() > deadline) throw new Error('the marked addresses were not taken');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(await PersonModel.countDocuments({ _id: /^nobody-/ })).toBe(0);
  });
});
