import { Queue, type Job, type Processor, type Worker } from 'bullmq';
import {
  LIST_DELETE_RECOVERY_SCHEDULER_ID,
  QUEUE_NAMES,
  listDeleteJobId,
  type ListDeleteJob,
  type QueueName,
} from '@agency/contracts';
import {
  LIST_DELETE_CHUNK_DEFAULT,
  MAIL_JOB_OPTIONS,
  isListDeleting,
  listsBeingDeleted,
  removeDeletedList,
  removeListMembersChunk,
  type Logger,
  type Redis,
} from '@agency/platform';
import { startScheduledJob, type ScheduledJob } from '../job-schedulers';

/** The process's worker starter, for queues of any payload. */
export type StartAnyWorker = <T>(
  name: QueueName,
  processor: Processor<T>,
  concurrency: number,
) => Worker;

export interface ListDeleteDeps {
  /** Members removed per write (LIST_DELETE_CHUNK_DEFAULT unless a test wants it small). */
  chunkSize?: number;
  /**
   * Aborted when the process stops: the job ends after the chunk in hand
   * (failing, so BullMQ runs it again on a worker that stays), rather than
   * holding the shutdown for the rest of a large list.
   */
  signal?: AbortSignal;
  logger: Logger;
}

/** Thrown between two chunks when the process stops; the next attempt resumes. */
export class ListDeleteStopped extends Error {
  constructor() {
    super('The worker stopped; the deletion resumes on the next attempt');
  }
}

/**
 * Deletes a list marked as being deleted: its members chunk by chunk
 * (bounded writes, which every store takes), its progress saved after each,
 * then the list itself. Every step finds what is left, so a run taken over
 * after a crash, or run twice, just finishes the work: a list already gone,
 * or not marked, is skipped.
 */
export function listDeleteProcessor({
  chunkSize = LIST_DELETE_CHUNK_DEFAULT,
  signal,
  logger,
}: ListDeleteDeps) {
  return async (job: Job<ListDeleteJob>): Promise<'deleted' | 'skipped'> => {
    const { listId } = job.data;
    if (!(await isListDeleting(listId))) return 'skipped';
    let removed = 0;
    for (;;) {
      if (signal?.aborted) throw new ListDeleteStopped();
      const chunk = await removeListMembersChunk(listId, chunkSize);
      if (chunk.found === 0) break;
      removed += chunk.removed;
      await job.updateProgress(removed);
    }
    await removeDeletedList(listId);
    logger.info({ listId, removed, attempt: job.attemptsMade + 1 }, 'list deleted');
    return 'deleted';
  };
}

/** Options of a deletion job, from the API or the recovery: the mail jobs' retries. */
export const LIST_DELETE_JOB_OPTIONS = MAIL_JOB_OPTIONS;

/**
 * One recovery pass: every list still marked as being deleted has a job
 * that will finish it. A job Redis lost (a restart without persistence, an
 * enqueue that failed while Redis was down) is added again; one that used
 * up its attempts is retried; one that ended while the list is still there
 * is replaced. A job waiting or running is left alone (a worker that died
 * with it loses its lock, and BullMQ gives it to another).
 */
export function listDeleteRecoveryProcessor({
  queue,
  logger,
}: {
  queue: Queue<ListDeleteJob>;
  logger: Logger;
}) {
  return async (): Promise<{ requeued: number }> => {
    let requeued = 0;
    for (const listId of await listsBeingDeleted()) {
      const jobId = listDeleteJobId(listId);
      const existing = await queue.getJob(jobId);
      if (existing && (await existing.isFailed())) {
        await existing.retry();
        requeued += 1;
        continue;
      }
      if (existing && (await existing.isCompleted())) await existing.remove();
      else if (existing) continue;
      await queue.add(QUEUE_NAMES.listDelete, { listId }, { jobId, ...LIST_DELETE_JOB_OPTIONS });
      requeued += 1;
    }
    if (requeued > 0) logger.warn({ requeued }, 'list deletions queued again by the recovery');
    return { requeued };
  };
}

export interface ListDeletion {
  close(): Promise<void>;
}

/**
 * The deletion queue's worker (one list at a time per process: each chunk
 * is a write the store serialises anyway) and the recovery's job scheduler,
 * one pass per `recoveryIntervalMs` across every worker process.
 */
export async function startListDeletion({
  connection,
  queuePrefix,
  logger,
  chunkSize,
  recoveryIntervalMs,
  startWorker,
}: {
  connection: Redis;
  queuePrefix: string;
  logger: Logger;
  chunkSize?: number;
  recoveryIntervalMs: number;
  startWorker: StartAnyWorker;
}): Promise<ListDeletion> {
  const stopping = new AbortController();
  const worker = startWorker(
    QUEUE_NAMES.listDelete,
    listDeleteProcessor({ chunkSize, signal: stopping.signal, logger }),
    1,
  );
  const queue = new Queue<ListDeleteJob>(QUEUE_NAMES.listDelete, {
    connection,
    prefix: queuePrefix,
  });
  queue.on('error', (error) => logger.warn({ err: error.message }, 'list delete queue error'));
  const recovery: ScheduledJob = await startScheduledJob({
    name: QUEUE_NAMES.listDeleteRecovery,
    schedulerId: LIST_DELETE_RECOVERY_SCHEDULER_ID,
    everyMs: recoveryIntervalMs,
    processor: listDeleteRecoveryProcessor({ queue, logger }),
    connection,
    queuePrefix,
    logger,
    startWorker,
  });
  return {
    async close() {
      stopping.abort();
      await recovery.close();
      await worker.close();
      await queue.close();
    },
  };
}
