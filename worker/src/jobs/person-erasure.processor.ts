import { UnrecoverableError, type Job } from 'bullmq';
import { isLocale, type PersonErasureJob } from '@agency/contracts';
import {
  allContactChanges,
  CONFIRMATION_STEP,
  createContactAddressChanges,
  createContactIndexSets,
  erasureKeyOf,
  erasedAddressDigest,
  mailMessageId,
  markErasureEnded,
  markErasureStepDone,
  runPersonErasureSteps,
  type ContactChanges,
  type ErasureKey,
  type Logger,
  type MailIdentityKey,
  type PersonErasureDeps,
  type Redis,
} from '@agency/platform';
import type { MailTransport } from '../mail/transport';
import { renderPersonErasure } from '../mail/templates/person-erasure.template';

export interface PersonErasureProcessorDeps extends PersonErasureDeps {
  erasureKey: ErasureKey;
  transport: MailTransport;
  mailFrom: string;
  messageIdDomain: string;
  identityKey: MailIdentityKey;
  logger: Logger;
}

export type PersonErasureOutcome = 'erased';

/** The mail that tells the person it is done, in their language, once. */
async function sendConfirmation(
  deps: PersonErasureProcessorDeps,
  job: Job<PersonErasureJob>,
  locale: string | null | undefined,
): Promise<void> {
  const mail = renderPersonErasure(locale && isLocale(locale) ? locale : 'en');
  await deps.transport.sendMail({
    from: deps.mailFrom,
    to: job.data.email,
    subject: mail.subject,
    text: mail.text,
    html: mail.html,
    messageId: mailMessageId(
      deps.identityKey,
      `person-erasure-${job.data.erasureId}`,
      job.data.email,
      deps.messageIdDomain,
    ),
  });
}

/**
 * Erases one address: the steps not yet recorded as done (a run after a
 * crash resumes), then the confirmation mail, then the erasure marked done.
 * The job carries the address and is removed when it ends (the queue's
 * options), so nothing of it stays in Redis. Its last failed attempt marks
 * the erasure failed, for staff to ask again.
 */
export function personErasureProcessor(deps: PersonErasureProcessorDeps) {
  return async (job: Job<PersonErasureJob>): Promise<PersonErasureOutcome> => {
    const { erasureId, email } = job.data;
    // Only the API writes these jobs; one whose id is not its address's digest is not ours.
    if (erasedAddressDigest(deps.erasureKey, email) !== erasureId) {
      await markErasureEnded(erasureId, 'failed');
      throw new UnrecoverableError('the erasure id is not this address');
    }
    try {
      const stored = await runPersonErasureSteps(deps, email);
      if (!stored.steps.includes(CONFIRMATION_STEP)) {
        await sendConfirmation(deps, job, stored.locale);
        await markErasureStepDone(erasureId, CONFIRMATION_STEP);
      }
      await markErasureEnded(erasureId, 'done');
      deps.logger.info({ erasureId, jobId: job.id }, 'person erased');
      return 'erased';
    } catch (error) {
      if (job.attemptsMade + 1 >= (job.opts.attempts ?? 1)) {
        await markErasureEnded(erasureId, 'failed');
      }
      throw error;
    }
  };
}

/**
 * What the erasure needs from the worker's process: the enquiries' views are
 * told of each deletion as the API's deletion tells them (the kept figures,
 * the list's index in Redis, the audience's address copies).
 */
export function personErasureDepsOf(options: {
  connection: Redis;
  queuePrefix: string;
  mailLinkSecret: string;
  transport: MailTransport;
  mailFrom: string;
  messageIdDomain: string;
  identityKey: MailIdentityKey;
  logger: Logger;
  keptContactChanges: ContactChanges;
}): PersonErasureProcessorDeps {
  const { connection, queuePrefix: prefix, logger } = options;
  return {
    ...options,
    erasureKey: erasureKeyOf(options.mailLinkSecret),
    redis: { connection, prefix },
    contactChanges: allContactChanges(
      options.keptContactChanges,
      createContactIndexSets(connection, { prefix, logger }).changes,
      createContactAddressChanges({ logger }),
    ),
  };
}
