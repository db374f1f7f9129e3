import type { Logger } from '../logger';
import { findContactIdsAwaitingMail } from '../modules/contact';
import { enqueueContactNotifications, type MailQueues } from './mail-queues';

export interface OutboxRelayOptions {
  queues: MailQueues;
  logger: Logger;
  intervalMs: number;
  /** Only documents left `pending` this long are re-enqueued (the API enqueues the rest). */
  pendingAgeMs: number;
  batchSize?: number;
}

export interface OutboxRelay {
  /** One pass; returns how many mails were (re-)enqueued. */
  runOnce(): Promise<number>;
  stop(): Promise<void>;
}

/**
 * Re-enqueues mail that is owed but may never have reached Redis (it was
 * down, or the API died between the save and the enqueue). Job ids are
 * deterministic, so a mail already queued is not queued twice.
 */
export function startOutboxRelay({
  queues,
  logger,
  intervalMs,
  pendingAgeMs,
  batchSize = 500,
}: OutboxRelayOptions): OutboxRelay {
  let running: Promise<number> | undefined;

  async function relayPending(): Promise<number> {
    const olderThan = new Date(Date.now() - pendingAgeMs);
    const ids = await findContactIdsAwaitingMail(olderThan, batchSize);
    await enqueueContactNotifications(queues, ids);
    if (ids.length > 0) logger.info({ count: ids.length }, 'outbox relay enqueued pending mail');
    return ids.length;
  }

  function runOnce(): Promise<number> {
    running ??= relayPending().finally(() => {
      running = undefined;
    });
    return running;
  }

  const timer = setInterval(() => {
    runOnce().catch((error: unknown) =>
      logger.warn({ err: error }, 'outbox relay pass failed; will retry'),
    );
  }, intervalMs);
  timer.unref();

  return {
    runOnce,
    async stop() {
      clearInterval(timer);
      await running?.catch(() => 0);
    },
  };
}
