import { Queue, type Job } from 'bullmq';
import { QUEUE_NAMES } from '@agency/contracts';
import type { Redis } from '../redis-connection';

/*
 * BullMQ keeps jobs after they end (an enquiry's mail job a day, failed jobs
 * longer), and some carry an address in their data: an enquiry's fields, a
 * sign-up request, a campaign batch's recipients, a test send's addresses.
 * Erasing a person takes those jobs away.
 */

const KEPT_STATES = ['completed', 'failed', 'waiting', 'delayed', 'prioritized'] as const;
const PAGE = 500;

function holds(job: Job, pattern: RegExp): boolean {
  return pattern.test(JSON.stringify(job.data ?? null)) || pattern.test(job.failedReason ?? '');
}

/**
 * A campaign batch still to be sent carries its recipients by position (the
 * ledger's order): the person cannot be taken out of it without shifting the
 * others' outcomes. The step waits for the batch to be sent (and its job
 * removed or kept as completed, which the step then removes): the erasure
 * job is retried later.
 */
export class CampaignBatchInFlight extends Error {
  constructor() {
    super('a campaign batch holding the address is still to be sent');
    this.name = 'CampaignBatchInFlight';
  }
}

async function eraseFromJob(queueName: string, job: Job, state: string) {
  const waiting = state !== 'completed' && state !== 'failed';
  if (waiting && queueName === QUEUE_NAMES.campaignSend) throw new CampaignBatchInFlight();
  // A job a worker holds right now cannot be removed: the erasure job is retried.
  await job.remove();
}

/** Removes every kept job of every queue but `except` whose data names the address. */
export async function eraseQueuedJobsOf(
  redis: { connection: Redis; prefix: string },
  pattern: RegExp,
  except: string,
): Promise<number> {
  let erased = 0;
  for (const name of Object.values(QUEUE_NAMES)) {
    if (name === except) continue;
    const queue = new Queue(name, { connection: redis.connection, prefix: redis.prefix });
    try {
      for (const state of KEPT_STATES) {
        for (let start = 0; ; start += PAGE) {
          const jobs = await queue.getJobs([state], start, start + PAGE - 1, true);
          for (const job of jobs.filter((one) => holds(one, pattern))) {
            await eraseFromJob(name, job, state);
            erased += 1;
          }
          if (jobs.length < PAGE) break;
        }
      }
      erased += await eraseFromEventStream(redis, name, pattern);
    } finally {
      await queue.close();
    }
  }
  return erased;
}

/** A queue's event stream repeats failure reasons, which may quote the address (an SMTP refusal). */
async function eraseFromEventStream(
  { connection, prefix }: { connection: Redis; prefix: string },
  queueName: string,
  pattern: RegExp,
): Promise<number> {
  const stream = `${prefix}:${queueName}:events`;
  const entries = await connection.xrange(stream, '-', '+');
  const ids = entries.filter(([, fields]) => pattern.test(fields.join('\n'))).map(([id]) => id);
  if (ids.length > 0) await connection.xdel(stream, ...ids);
  return ids.length;
}
