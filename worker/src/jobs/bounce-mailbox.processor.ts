import type { Job } from 'bullmq';
import { BOUNCE_MAILBOX_SCHEDULER_ID, QUEUE_NAMES, type BounceMailboxJob } from '@agency/contracts';
import type { Logger, MailIdentityKey, Redis, SubscriberChanges } from '@agency/platform';
import { pollBounceMailbox, type BouncePollReport } from '../bounces/bounce-mailbox';
import { mailboxLabel, type BounceMailboxSettings } from '../bounces/bounce-mailbox-settings';
import { startScheduledJob, type ScheduledJob, type StartWorker } from '../job-schedulers';

export interface BounceMailboxDeps {
  settings: BounceMailboxSettings;
  /** Told when an address is unsubscribed: the dashboard's figures follow it. */
  changes: SubscriberChanges;
  /** Checks that a report names a mail we sent to the recipient it reports on. */
  identityKey: MailIdentityKey;
  logger: Logger;
}

/** A pass's report, or why the mailbox could not be read this time. */
export type BounceMailboxOutcome = BouncePollReport | { unreachable: string };

/**
 * One pass over the bounce mailbox, run by the job scheduler once per
 * interval. A server that is down, refuses the login or drops the
 * connection (or a store that fails half-way) costs a warning, never the
 * job's retries or the worker: what was not flagged is read again by the
 * next pass, which the scheduler adds anyway.
 */
export function bounceMailboxProcessor({
  settings,
  changes,
  identityKey,
  logger,
}: BounceMailboxDeps) {
  return async (_job: Job<BounceMailboxJob>): Promise<BounceMailboxOutcome> => {
    try {
      const report = await pollBounceMailbox({ settings, changes, identityKey, logger });
      if (report.read > 0)
        logger.info({ ...mailboxLabel(settings), ...report }, 'bounce mailbox read');
      return report;
    } catch (error: unknown) {
      const reason = error instanceof Error ? error.message : String(error);
      logger.warn(
        { ...mailboxLabel(settings), err: reason },
        'bounce mailbox could not be read; the next pass tries again',
      );
      return { unreachable: reason };
    }
  };
}

export type BounceMailboxPolling = ScheduledJob;

/**
 * The bounce mailbox's queue, worker and job scheduler (startScheduledJob):
 * one pass per interval on whichever worker is free, the first at once.
 * Two passes at once (a pass longer than the interval, on two processes)
 * would do no harm: events are recorded once by their id, and a message
 * the other pass moved is simply no longer there.
 */
export async function startBounceMailboxPolling({
  connection,
  queuePrefix,
  logger,
  settings,
  changes,
  identityKey,
  pollIntervalMs,
  startWorker,
}: {
  connection: Redis;
  queuePrefix: string;
  logger: Logger;
  settings: BounceMailboxSettings;
  changes: SubscriberChanges;
  identityKey: MailIdentityKey;
  pollIntervalMs: number;
  startWorker: StartWorker<BounceMailboxJob>;
}): Promise<BounceMailboxPolling> {
  return startScheduledJob({
    name: QUEUE_NAMES.bounceMailbox,
    schedulerId: BOUNCE_MAILBOX_SCHEDULER_ID,
    everyMs: pollIntervalMs,
    processor: bounceMailboxProcessor({ settings, changes, identityKey, logger }),
    connection,
    queuePrefix,
    logger,
    startWorker,
  });
}
