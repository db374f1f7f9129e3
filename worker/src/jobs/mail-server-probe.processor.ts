import { MAIL_SERVER_PROBE_SCHEDULER_ID, QUEUE_NAMES } from '@agency/contracts';
import {
  markMailServerReachable,
  markMailServerUnreachable,
  readMailServerState,
  type Logger,
  type Redis,
} from '@agency/platform';
import { startScheduledJob, type ScheduledJob, type StartWorker } from '../job-schedulers';
import { connectionFailureCode } from '../mail/smtp-failure';

/** The one thing a probe needs of a transport: Nodemailer's `verify()` (connect, greet, log in). */
export interface VerifiableTransport {
  verify(): Promise<true>;
}

export type MailServerProbeResult = 'reachable' | 'unreachable' | 'not-needed';

export interface MailServerProbeDeps {
  redis: Redis;
  queuePrefix: string;
  transport: VerifiableTransport;
  logger: Logger;
}

/**
 * One probe pass. While no outage is noted it only reads the state: the
 * sends themselves tell an outage. During one it connects to the server, and
 * its first answer ends the outage, so the batches waiting go on at their
 * next look even when no send tries in between.
 */
export function mailServerProbeProcessor(deps: MailServerProbeDeps) {
  return async (): Promise<MailServerProbeResult> => {
    const state = await readMailServerState(deps.redis, deps.queuePrefix);
    if (state.status === 'reachable') return 'not-needed';
    try {
      await deps.transport.verify();
    } catch (error) {
      await markMailServerUnreachable(deps.redis, deps.queuePrefix, connectionFailureCode(error));
      return 'unreachable';
    }
    await markMailServerReachable(deps.redis, deps.queuePrefix);
    deps.logger.info({ since: state.since }, 'the mail server answers again; sending resumes');
    return 'reachable';
  };
}

/** The probe's queue, worker and job scheduler: one pass per interval across every worker process. */
export function startMailServerProbe(
  options: MailServerProbeDeps & {
    everyMs: number;
    startWorker: StartWorker<Record<string, never>>;
  },
): Promise<ScheduledJob> {
  const { everyMs, startWorker, ...deps } = options;
  return startScheduledJob({
    name: QUEUE_NAMES.mailServerProbe,
    schedulerId: MAIL_SERVER_PROBE_SCHEDULER_ID,
    everyMs,
    processor: mailServerProbeProcessor(deps),
    connection: deps.redis,
    queuePrefix: deps.queuePrefix,
    logger: deps.logger,
    startWorker,
  });
}
