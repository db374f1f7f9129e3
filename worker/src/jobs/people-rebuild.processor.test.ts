import { pino } from 'pino';
import { Worker, type Processor, type QueueEvents } from 'bullmq';
import { QUEUE_NAMES, type QueueName } from '@agency/contracts';
import { createRedisConnection, withSearchKeys, type Redis } from '@agency/platform';
import { PersonModel } from '@agency/platform/testing/audience-models';
import { ContactModel } from '@agency/platform/testing/contact-models';
import type { ScheduledJob } from '../job-schedulers';
import { createPipelineContext, type PipelineContext } from '../testing/pipeline-context';
import { startPeopleRebuild } from './people-rebuild.processor';

describe("the people view's rebuild", () => {
  let ctx: PipelineContext;
  let connection: Redis;
  let events: QueueEvents;
  let rebuild: ScheduledJob | undefined;

  beforeAll(async () => {
    ctx = await createPipelineContext();
    connection = createRedisConnection(ctx.config.redisUrl, 'consumer');
    events = await ctx.queueEvents(QUEUE_NAMES.peopleRebuild);
  });
  afterAll(async () => {
    await rebuild?.close();
    connection.disconnect();
    await ctx.close();
  });

  it('runs on the worker: an enquiry stored without its person gets one, an orphan goes', async () => {
    await ContactModel.create({
      ...withSearchKeys({ firstName: 'Amira', lastName: 'Ben Salah', email: 'Amira@Example.tn' }),
      service: 'web-design',
      message: 'A new website, please.',
    });
    await PersonModel.collection.insertOne({
      _id: 'orphan@example.tn',
      email: 'orphan@example.tn',
    } as never);

    const passed = new Promise((resolve) => events.once('completed', resolve));
    rebuild = await startPeopleRebuild({
      connection,
      queuePrefix: ctx.config.queuePrefix,
      logger: pino({ level: 'silent' }),
      startWorker: (name: QueueName, processor: Processor<Record<string, never>>, concurrency) =>
        new Worker(name, processor, { connection, prefix: ctx.config.queuePrefix, concurrency }),
    });
    await passed;

    expect(await PersonModel.findById('amira@example.tn').lean()).toMatchObject({
      email: 'Amira@Example.tn',
      sources: ['contact'],
    });
    expect(await PersonModel.findById('orphan@example.tn').lean()).toBeNull();
  });
});
