import { UnrecoverableError, type Job } from 'bullmq';
import { isPermanentSmtpFailure, smtpFailureReason } from '../mail/smtp-failure';

export type MailOutcome = 'sent' | 'skipped';

/** True on the job's last allowed attempt: `attemptsMade` counts the ones that already failed. */
export function isFinalAttempt(job: Job): boolean {
  return job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
}

/**
 * True while the job runs for the first time: no attempt failed and it was
 * never taken back from a worker that stalled or died. Only then can it
 * know, without reading the receipts, that none of its mails went out.
 */
export function isFirstRun(job: Job): boolean {
  return job.attemptsMade === 0 && job.attemptsStarted <= 1 && !job.stalledCounter;
}

/** One mail a job owes, and how to record its outcome (its receipt). */
export interface OwedMail<Name extends string> {
  name: Name;
  /** False once the mail has a receipt (sent or failed), or is owed no more: a replayed job sends nothing. */
  owed: boolean;
  send(): Promise<unknown>;
  markSent(): Promise<void>;
  /** Records the failure with the server's reply, so staff see why. */
  markFailed(reason: string): Promise<void>;
}

/**
 * Sends the mails a job still owes, one after the other, and records each
 * outcome (a receipt) before the job settles, so whoever waits on the job
 * finds it recorded.
 *
 * - A transient failure (no connection, a 4xx reply) is thrown back to
 *   BullMQ, which retries the job with exponential backoff; the mails already
 *   sent are skipped then. The last attempt's failure is recorded.
 * - A 5xx reply is recorded at once and the job ends without retrying it.
 *
 * Once no mail of the job is owed any more (each sent, failed or skipped),
 * `settle` is called, told whether every mail went out (`delivered`), to
 * take the job out of the outbox; a job left for a retry stays in.
 */
export async function deliverOwedMails<Name extends string>(
  job: Job,
  mails: readonly OwedMail<Name>[],
  settle: (delivered: boolean) => Promise<void>,
): Promise<Record<Name, MailOutcome>> {
  const outcomes = {} as Record<Name, MailOutcome>;
  const refusals: string[] = [];
  let retryable: unknown;
  for (const mail of mails) {
    outcomes[mail.name] = 'skipped';
    if (!mail.owed) continue;
    try {
      await mail.send();
    } catch (error: unknown) {
      const reason = smtpFailureReason(error);
      if (isPermanentSmtpFailure(error)) {
        await mail.markFailed(reason);
        refusals.push(`${mail.name}: ${reason}`);
      } else {
        if (isFinalAttempt(job)) await mail.markFailed(reason);
        retryable ??= error;
      }
      continue;
    }
    await mail.markSent();
    outcomes[mail.name] = 'sent';
  }
  // A transient failure before the last attempt leaves its mail owed: BullMQ retries it.
  if (retryable === undefined || isFinalAttempt(job))
    await settle(retryable === undefined && refusals.length === 0);
  if (retryable !== undefined) throw retryable;
  if (refusals.length > 0) throw new UnrecoverableError(refusals.join('; '));
  return outcomes;
}
