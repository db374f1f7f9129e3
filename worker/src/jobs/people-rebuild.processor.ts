import { Queue } from 'bullmq';
import { QUEUE_NAMES } from '@agency/contracts';
import {
  peopleNeedFilling,
  rebuildPeople,
  type Logger,
  type PeopleRefreshCounts,
  type Redis,
} from '@agency/platform';
import { startScheduledJob, type ScheduledJob, type StartWorker } from '../job-schedulers';

export const PEOPLE_REBUILD_SCHEDULER_ID = 'people-rebuild';
/** Daily: each write refreshes its people at once, so the rebuild only repairs what one missed. */
export const PEOPLE_REBUILD_EVERY_MS = 24 * 3600 * 1000;
/** The one-off pass that fills the view of an installation from before it. */
const FILL_JOB_ID = 'people-fill';

/**
 * One rebuild pass: every address some record holds refreshed, every person
 * nothing holds removed. `stopping` ends it between two batches, so a worker
 * asked to shut down does not wait for a whole rebuild: the pass fails, and
 * the next one (the next day's) does it all again.
 */
export function peopleRebuildProcessor(logger: Logger, stopping?: AbortSignal) {
  return async (): Promise<PeopleRefreshCounts> => {
    const report = await rebuildPeople(stopping);
    logger.info(report, 'people view rebuilt');
    return report;
  };
}

/**
 * The rebuild's job scheduler, daily on whichever worker is free; and, when
 * the view is empty while records hold addresses (an installation from
 * before it), one pass at once.
 *
 * A scheduler Redis did not hold is created with its first pass due at once
 * (startScheduledJob), and that pass fills the view: a second one beside it
 * would read every source again in another worker, and V8 keeps the memory
 * a rebuild took. So the fill is queued only when no pass is waiting or
 * running, which is when the scheduler was already set (its next pass a day
 * away) and the view was emptied since. It goes under a fixed id, so
 * several workers starting together queue it once.
 */
export async function startPeopleRebuild({
  connection,
  queuePrefix,
  logger,
  startWorker,
  everyMs = PEOPLE_REBUILD_EVERY_MS,
}: {
  connection: Redis;
  queuePrefix: string;
  logger: Logger;
  startWorker: StartWorker<Record<string, never>>;
  everyMs?: number;
}): Promise<ScheduledJob> {
  const stopping = new AbortController();
  const scheduled = await startScheduledJob({
    name: QUEUE_NAMES.peopleRebuild,
    schedulerId: PEOPLE_REBUILD_SCHEDULER_ID,
    everyMs,
    processor: peopleRebuildProcessor(logger, stopping.signal),
    abandonOnClose: true,
    connection,
    queuePrefix,
    logger,
    startWorker,
  });
  const queue = new Queue<Record<string, never>>(QUEUE_NAMES.peopleRebuild, {
    connection,
    prefix: queuePrefix,
  });
  try {
    if (!(await passUnderWay(queue)) && (await peopleNeedFilling())) {
      await queue.add(
        QUEUE_NAMES.peopleRebuild,
        {},
        { jobId: FILL_JOB_ID, removeOnComplete: true },
      );
    }
  } finally {
    await queue.close();
  }
  return {
    async close() {
      stopping.abort();
      await scheduled.close();
    },
  };
}

/** Whether a rebuild pass is queued to run now, or running. */
async function passUnderWay(queue: Queue<Record<string, never>>): Promise<boolean> {
  const counts = await queue.getJobCounts('waiting', 'prioritized', 'active');
  return Object.values(counts).some((count) => count > 0);
}
