import { pino } from 'pino';
import { Queue, Worker, type Processor, type QueueEvents } from 'bullmq';
import { QUEUE_NAMES, type QueueName } from '@agency/contracts';
import { createRedisConnection, withSearchKeys, type Redis } from '@agency/platform';
import { PersonModel } from '@agency/platform/testing/audience-models';
import { ContactModel } from '@agency/platform/testing/contact-models';
import type { ScheduledJob, StartWorker } from '../job-schedulers';
import { createPipelineContext, type PipelineContext } from '../testing/pipeline-context';
import { PEOPLE_REBUILD_SCHEDULER_ID, startPeopleRebuild } from './people-rebuild.processor';

type RebuildJob = Record<string, never>;

/** A worker process's rebuild, its queue's worker made by `startWorker`. */
function startRebuild(
  ctx: PipelineContext,
  connection: Redis,
  startWorker: StartWorker<RebuildJob>,
): Promise<ScheduledJob> {
  return startPeopleRebuild({
    connection,
    queuePrefix: ctx.config.queuePrefix,
    logger: pino({ level: 'silent' }),
    startWorker,
  });
}

function storeEnquiry(email: string) {
  return ContactModel.create({
    ...withSearchKeys({ firstName: 'Amira', lastName: 'Ben Salah', email }),
    service: 'web-design',
    message: 'A new website, please.',
  });
}

/** The passes queued to run now or running, whoever queued them. */
async function passesDue(ctx: PipelineContext, connection: Redis): Promise<number> {
  const queue = new Queue(QUEUE_NAMES.peopleRebuild, {
    connection,
    prefix: ctx.config.queuePrefix,
  });
  try {
    const counts = await queue.getJobCounts('waiting', 'prioritized', 'active');
    return Object.values(counts).reduce((sum, count) => sum + count, 0);
  } finally {
    await queue.close();
  }
}

describe("the people view's rebuild", () => {
  let ctx: PipelineContext;
  let connection: Redis;
  let events: QueueEvents;
  const started: ScheduledJob[] = [];
  const workers: Worker[] = [];

  /** Workers that take no job until the test runs them. */
  const idleWorker: StartWorker<RebuildJob> = (
    name: QueueName,
    processor: Processor<RebuildJob>,
    concurrency,
  ) => {
    const worker = new Worker(name, processor, {
      connection,
      prefix: ctx.config.queuePrefix,
      concurrency,
      autorun: false,
    });
    workers.push(worker);
    return worker;
  };

  beforeEach(async () => {
    ctx = await createPipelineContext();
    connection = createRedisConnection(ctx.config.redisUrl, 'consumer');
    events = await ctx.queueEvents(QUEUE_NAMES.peopleRebuild);
  });
  afterEach(async () => {
    for (const rebuild of started.splice(0)) await rebuild.close();
    workers.splice(0);
    connection.disconnect();
    await ctx.close();
  });

  it('runs on the worker: an enquiry stored without its person gets one, an orphan goes', async () => {
    await storeEnquiry('Amira@Example.tn');
    await PersonModel.collection.insertOne({
      _id: 'orphan@example.tn',
      email: 'orphan@example.tn',
    } as never);

    const passed = new Promise((resolve) => events.once('completed', resolve));
    started.push(
      await startRebuild(
        ctx,
        connection,
        (name, processor, concurrency) =>
          new Worker(name, processor, { connection, prefix: ctx.config.queuePrefix, concurrency }),
      ),
    );
    await passed;

    expect(await PersonModel.findById('amira@example.tn').lean()).toMatchObject({
      email: 'Amira@Example.tn',
      sources: ['contact'],
    });
    expect(await PersonModel.findById('orphan@example.tn').lean()).toBeNull();
  });

  it("fills a new installation's view with one pass however many workers start together", async () => {
    await storeEnquiry('first@example.tn');

    started.push(await startRebuild(ctx, connection, idleWorker));
    started.push(await startRebuild(ctx, connection, idleWorker));

    // The new scheduler's first pass is the fill: no second one beside it.
    expect(await passesDue(ctx, connection)).toBe(1);
    const passed = new Promise((resolve) => events.once('completed', resolve));
    void workers[0]?.run();
    await passed;
    expect(await PersonModel.findById('first@example.tn').lean()).toMatchObject({
      sources: ['contact'],
    });
  });

  it('fills a view emptied while the daily pass was a day away', async () => {
    await storeEnquiry('first@example.tn');
    const firstPass = new Promise((resolve) => events.once('completed', resolve));
    started.push(await startRebuild(ctx, connection, idleWorker));
    void workers[0]?.run();
    await firstPass;
    for (const rebuild of started.splice(0)) await rebuild.close();
    const scheduler = new Queue(QUEUE_NAMES.peopleRebuild, {
      connection,
      prefix: ctx.config.queuePrefix,
    });
    const nextPass = (await scheduler.getJobScheduler(PEOPLE_REBUILD_SCHEDULER_ID))?.next;
    await scheduler.close();
    expect(nextPass).toBeGreaterThan(Date.now() + 3600_000);

    await PersonModel.deleteMany({});
    const fill = new Promise((resolve) => events.once('completed', resolve));
    started.push(await startRebuild(ctx, connection, idleWorker));
    expect(await passesDue(ctx, connection)).toBe(1);
    void workers[1]?.run();
    await fill;
    expect(await PersonModel.findById('first@example.tn').lean()).toMatchObject({
      sources: ['contact'],
    });
  });
});
