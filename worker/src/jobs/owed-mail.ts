import { UnrecoverableError, type Job } from 'bullmq';
import { isPermanentSmtpFailure, smtpFailureReason } from '../mail/smtp-failure';

export type MailOutcome = 'sent' | 'skipped';

/** True on the job's last allowed attempt: `attemptsMade` counts the ones that already failed. */
export function isFinalAttempt(job: Job): boolean {
  return job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
}

/** One mail a document owes, and how to record its outcome there. */
export interface OwedMail<Name extends string> {
  name: Name;
  /** False once the mail was settled (sent or failed): a replayed job sends nothing. */
  owed: boolean;
  send(): Promise<unknown>;
  markSent(): Promise<void>;
  /** Records the failure with the server's reply, so staff see why. */
  markFailed(reason: string): Promise<void>;
}

/**
 * Sends the mails a document still owes, one after the other (the store
 * updates one document at a time), and records each outcome there before
 * the job settles, so whoever waits on the job finds the document updated.
 *
 * - A transient failure (no connection, a 4xx reply) is thrown back to
 *   BullMQ, which retries the job with exponential backoff; the mails already
 *   sent are skipped then. The last attempt's failure is recorded.
 * - A 5xx reply is recorded at once and the job ends without retrying it.
 */
export async function deliverOwedMails<Name extends string>(
  job: Job,
  mails: readonly OwedMail<Name>[],
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
  if (retryable !== undefined) throw retryable;
  if (refusals.length > 0) throw new UnrecoverableError(refusals.join('; '));
  return outcomes;
}
