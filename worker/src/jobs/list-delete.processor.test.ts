import { Queue, Worker } from 'bullmq';
import { Types } from 'mongoose';
import { QUEUE_NAMES, listDeleteJobId, type ListDeleteJob } from '@agency/contracts';
import { createLogger, listMemberId, markListDeleting } from '@agency/platform';
import { ListMemberModel, MailingListModel } from '@agency/platform/testing/audience-models';
import { importApi, type ImportApi } from '../testing/import-api';
import { createPipelineContext, type PipelineContext } from '../testing/pipeline-context';
import {
  LIST_DELETE_JOB_OPTIONS,
  listDeleteProcessor,
  listDeleteRecoveryProcessor,
} from './list-delete.processor';

/**
 * A list's deletion through the real job, on the real store and Redis: the
 * API marks the list and queues the job, the worker removes the members in
 * chunks, then the list; a job stopped half-way, or lost, finishes later.
 */
let ctx: PipelineContext;
let api: ImportApi;
let queue: Queue<ListDeleteJob>;
const logger = createLogger('test', 'silent');

beforeAll(async () => {
  ctx = await createPipelineContext();
  api = await importApi(ctx, 'list-deleter');
  queue = new Queue<ListDeleteJob>(QUEUE_NAMES.listDelete, {
    connection: connection(),
    prefix: ctx.config.queuePrefix,
  });
}, 60_000);

afterAll(async () => {
  await queue.close();
  await ctx.close();
});

/** BullMQ opens its own connections from these. */
function connection() {
  const url = new URL(ctx.config.redisUrl);
  return { host: url.hostname, port: Number(url.port), maxRetriesPerRequest: null };
}

/** A worker of the deletion queue alone, running the real processor. */
function deletionWorker(processor: ReturnType<typeof listDeleteProcessor>) {
  return new Worker<ListDeleteJob>(QUEUE_NAMES.listDelete, processor, {
    connection: connection(),
    prefix: ctx.config.queuePrefix,
  });
}

/** A list of `size` members, written as an import writes them (one insertMany per 5,000). */
async function listOf(size: number, name: string): Promise<string> {
  const list = await MailingListModel.create({ name, memberCount: size });
  const listId = String(list._id);
  const at = new Date();
  for (let start = 0; start < size; start += 5000) {
    const rows = [];
    for (let index = start; index < Math.min(size, start + 5000); index += 1) {
      const key = `m${index}@${name.toLowerCase().replace(/\W/g, '')}.test`;
      rows.push({
        _id: listMemberId(listId, key),
        list: list._id,
        key,
        email: key,
        consent: { basis: 'import', at, listName: name },
      });
    }
    await ListMemberModel.collection.insertMany(rows as never[]);
  }
  return listId;
}

const membersOf = (listId: string) =>
  ListMemberModel.countDocuments({ list: new Types.ObjectId(listId) });

async function waitUntilGone(listId: string, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (await MailingListModel.exists({ _id: listId })) {
    if (Date.now() > deadline) throw new Error(`list ${listId} was not deleted`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('deleting a list', () => {
  it('removes 12,000 members in chunks through the job, then the list, showing progress', async () => {
    const listId = await listOf(12_000, 'Big fair');
    const other = await listOf(10, 'Other fair');

    const asked = await api.delete(`/api/admin/lists/${listId}`);
    expect(asked.status).toBe(202);
    expect(asked.body).toMatchObject({
      state: 'deleting',
      deletion: { total: 12_000, removed: 0 },
    });

    const events = await ctx.queueEvents(QUEUE_NAMES.listDelete);
    const progress: number[] = [];
    events.on('progress', ({ jobId, data }) => {
      if (jobId === listDeleteJobId(listId)) progress.push(Number(data));
    });
    const job = await queue.getJob(listDeleteJobId(listId));
    const workers = await ctx.startWorker({
      smtpUrl: 'smtp://127.0.0.1:9',
      listDeleteChunkSize: 1000,
    });
    try {
      expect(await job?.waitUntilFinished(events, 120_000)).toBe('deleted');
    } finally {
      await workers.close();
    }

    expect(await membersOf(listId)).toBe(0);
    expect(await MailingListModel.exists({ _id: listId })).toBeNull();
    expect((await api.get(`/api/admin/lists/${listId}`)).status).toBe(404);
    // Twelve bounded chunks, the progress saved after each.
    expect(progress).toEqual(Array.from({ length: 12 }, (_, index) => (index + 1) * 1000));
    // Only that list: another list's members stay.
    expect(await membersOf(other)).toBe(10);
  }, 180_000);

  it('resumes a job stopped half-way, and finishes without error', async () => {
    const listId = await listOf(4000, 'Stopped fair');
    await markListDeleting(listId);
    const job = await queue.add(
      QUEUE_NAMES.listDelete,
      { listId },
      { jobId: listDeleteJobId(listId), attempts: 3, backoff: { type: 'fixed', delay: 10 } },
    );
    const events = await ctx.queueEvents(QUEUE_NAMES.listDelete);
    const stop = new AbortController();
    const first = deletionWorker(
      listDeleteProcessor({ chunkSize: 500, signal: stop.signal, logger }),
    );
    // The process is told to stop once half the members are gone.
    first.on('progress', (_job, progress) => {
      if (Number(progress) >= 2000) stop.abort();
    });
    const firstFailed = new Promise<string>((resolve) =>
      first.on('failed', (_job, error) => resolve(error.message)),
    );
    expect(await firstFailed).toMatch(/the deletion resumes/);
    await first.close();

    const halfWay = await MailingListModel.findById(listId).lean();
    expect(halfWay?.deletion?.removed).toBe(2000);
    expect(await membersOf(listId)).toBe(2000);

    const second = deletionWorker(listDeleteProcessor({ chunkSize: 500, logger }));
    try {
      expect(await job.waitUntilFinished(events, 60_000)).toBe('deleted');
    } finally {
      await second.close();
    }
    expect(await membersOf(listId)).toBe(0);
    expect(await MailingListModel.exists({ _id: listId })).toBeNull();
  }, 120_000);

  it('queues again a deletion whose job Redis lost, and retries one that used up its attempts', async () => {
    const lost = await listOf(300, 'Lost fair');
    const failed = await listOf(300, 'Failed fair');
    await markListDeleting(lost);
    await markListDeleting(failed);
    const events = await ctx.queueEvents(QUEUE_NAMES.listDelete);
    const failedJob = await queue.add(
      QUEUE_NAMES.listDelete,
      { listId: failed },
      { jobId: listDeleteJobId(failed), attempts: 1 },
    );
    const stopped = new AbortController();
    stopped.abort();
    const failing = deletionWorker(listDeleteProcessor({ signal: stopped.signal, logger }));
    await expect(failedJob.waitUntilFinished(events, 30_000)).rejects.toThrow();
    await failing.close();

    // A job that ended before its list was marked (it found nothing to do) is replaced.
    const early = await listOf(300, 'Early fair');
    const earlyJob = await queue.add(
      QUEUE_NAMES.listDelete,
      { listId: early },
      { jobId: listDeleteJobId(early) },
    );
    const skipping = deletionWorker(listDeleteProcessor({ logger }));
    expect(await earlyJob.waitUntilFinished(events, 30_000)).toBe('skipped');
    await skipping.close();
    await markListDeleting(early);

    const recover = listDeleteRecoveryProcessor({ queue, logger });
    expect(await recover()).toEqual({ requeued: 3 });
    // A second pass finds both jobs waiting: nothing more is added.
    expect(await recover()).toEqual({ requeued: 0 });

    const workers = await ctx.startWorker({ smtpUrl: 'smtp://127.0.0.1:9' });
    try {
      await waitUntilGone(lost);
      await waitUntilGone(failed);
      await waitUntilGone(early);
    } finally {
      await workers.close();
    }
    expect(await membersOf(lost)).toBe(0);
    expect(await membersOf(failed)).toBe(0);
    expect(await membersOf(early)).toBe(0);
  }, 120_000);
  it('fails an import queued into a list whose deletion began meanwhile, adding nobody', async () => {
    const listId = await listOf(0, 'Raced fair');
    const uploaded = await api.upload('email\nlate1@raced.test\nlate2@raced.test\n');
    const started = await api.start(
      uploaded.body.id as string,
      listId,
      uploaded.body.suggestedMapping as object,
    );
    expect(started.status).toBe(202);
    // The route refuses while an import is queued: this is the deletion that won
    // the race, marked and queued as the route does.
    await markListDeleting(listId);
    await queue.add(
      QUEUE_NAMES.listDelete,
      { listId },
      { jobId: listDeleteJobId(listId), ...LIST_DELETE_JOB_OPTIONS },
    );

    const workers = await ctx.startWorker({ smtpUrl: 'smtp://127.0.0.1:9' });
    try {
      const ended = await api.waitForEnd(uploaded.body.id as string);
      expect(ended).toMatchObject({ status: 'failed', error: 'The list was deleted' });
      await waitUntilGone(listId);
    } finally {
      await workers.close();
    }
    expect(await ListMemberModel.countDocuments({ key: /@raced\.test$/ })).toBe(0);
  }, 120_000);
});
