import { Queue } from 'bullmq';
import { QUEUE_NAMES, type QueueDepth } from '@agency/contracts';
import { type Redis, withTimeout } from '@agency/platform';

/** Every queue the product runs, for the operators' views (bull-board, health). */
export const ALL_QUEUE_NAMES: readonly string[] = [...Object.values(QUEUE_NAMES)];

export interface QueueRegistry {
  queues: Queue[];
  /** Waiting, active, delayed and failed jobs per queue; undefined when Redis does not answer in time. */
  depths(timeoutMs: number): Promise<Record<string, QueueDepth> | undefined>;
  close(): Promise<void>;
}

/** Read-only handles on every queue, on the API's producer connection. */
export function createQueueRegistry(connection: Redis, prefix: string): QueueRegistry {
  const queues = ALL_QUEUE_NAMES.map((name) => {
    const queue = new Queue(name, { connection, prefix });
    queue.on('error', () => undefined);
    return queue;
  });
  return {
    queues,
    async depths(timeoutMs) {
      try {
        const counts = await withTimeout(
          Promise.all(
            queues.map((queue) => queue.getJobCounts('waiting', 'active', 'delayed', 'failed')),
          ),
          timeoutMs,
        );
        return Object.fromEntries(
          queues.map((queue, index) => {
            const count = counts[index] ?? {};
            return [
              queue.name,
              {
                waiting: count.waiting ?? 0,
                active: count.active ?? 0,
                delayed: count.delayed ?? 0,
                failed: count.failed ?? 0,
              },
            ];
          }),
        );
      } catch {
        return undefined;
      }
    },
    async close() {
      await Promise.all(queues.map((queue) => queue.close()));
    },
  };
}

/**
 * One reconciliation pass of the dashboard's figures, now, beside the
 * worker's scheduled ones (each repair checks the figure it changes, so two
 * passes at once do no harm).
 */
export function recountStatsNow(queues: readonly Queue[]): Promise<unknown> {
  const queue = queues.find(({ name }) => name === QUEUE_NAMES.statsReconcile);
  if (!queue) return Promise.reject(new Error('no stats queue'));
  return queue.add('recount-now', {}, { removeOnComplete: true, removeOnFail: 100 });
}
