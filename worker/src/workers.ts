import { Queue, Worker, type JobsOptions, type Processor } from 'bullmq';
import { OUTBOX_RELAY_SCHEDULER_ID, QUEUE_NAMES, type OutboxRelayJob } from '@agency/contracts';
import { createMailQueues, type Logger, type Redis } from '@agency/backend/store';
import type { MailTransport } from './mail/transport';
import type { CampaignTransport } from './campaigns/campaign-transport';
import { contactMailProcessor } from './jobs/contact-mail.processor';
import { newsletterConfirmationProcessor } from './jobs/newsletter-confirmation.processor';
import { outboxRelayProcessor } from './jobs/outbox-relay.processor';
import { startStatsReconciliation } from './jobs/stats-reconcile.processor';
import {
  DEFAULT_CAMPAIGN_SETTINGS,
  startCampaignWorkers,
  type CampaignSendSettings,
} from './campaigns/campaign-workers';

export interface WorkersOptions {
  connection: Redis;
  queuePrefix: string;
  concurrency: number;
  transport: MailTransport;
  mailFrom: string;
  mailTo: string;
  /** The public website the newsletter's links open. */
  siteUrl: string;
  mailLinkSecret: string;
  outbox: { relayIntervalMs: number; pendingAgeMs: number };
  logger: Logger;
  /** Options of the jobs the relay adds; production uses the mail queues' defaults. */
  mailJobOptions?: JobsOptions;
  /** Campaign sends: their own SMTP connections, and their settings (defaults otherwise). */
  campaigns: Partial<CampaignSendSettings> & { transport: CampaignTransport };
  /**
   * The dashboard's kept figures, recounted every `reconcileIntervalMs` with
   * days named in `timeZone`. The process always passes it; tests of the mail
   * jobs leave it out, so that no recount reads the store beside them.
   */
  stats?: { reconcileIntervalMs: number; timeZone: string; settleMs?: number };
}

export interface RunningWorkers {
  /** Finishes the jobs in hand, then stops taking new ones. */
  close(): Promise<void>;
}

/** Message-IDs name the sender's own domain, as mail servers expect. */
function domainOf(mailbox: string): string {
  return /@([^\s>]+)>?\s*$/.exec(mailbox)?.[1] ?? 'agency.local';
}

/**
 * One BullMQ Worker per mail queue, plus the outbox relay: a job scheduler
 * (upserted by every copy, stored once in Redis) runs one relay pass per
 * interval on whichever worker is free. More processes mean more throughput.
 */
export async function startWorkers(options: WorkersOptions): Promise<RunningWorkers> {
  const { connection, queuePrefix, concurrency, logger } = options;
  const messageIdDomain = domainOf(options.mailFrom);
  const mailDeps = { ...options, messageIdDomain };

  function startWorker<T>(name: string, processor: Processor<T>, workerConcurrency = concurrency) {
    const worker = new Worker<T>(name, processor, {
      connection,
      prefix: queuePrefix,
      concurrency: workerConcurrency,
    });
    worker.on('failed', (job, error) => {
      logger.warn(
        { queue: name, jobId: job?.id, attempt: job?.attemptsMade, err: error.message },
        'job failed',
      );
    });
    worker.on('error', (error) => logger.error({ queue: name, err: error }, 'worker error'));
    return worker;
  }

  // The relay enqueues through queues of its own, on the worker's connection.
  const relayTargets = createMailQueues(connection, queuePrefix, options.mailJobOptions);
  const relayQueue = new Queue<OutboxRelayJob>(QUEUE_NAMES.outboxRelay, {
    connection,
    prefix: queuePrefix,
  });
  relayQueue.on('error', (error) => logger.warn({ err: error.message }, 'relay queue error'));

  const workers = [
    startWorker(QUEUE_NAMES.contactMail, contactMailProcessor(mailDeps)),
    startWorker(QUEUE_NAMES.newsletterConfirmation, newsletterConfirmationProcessor(mailDeps)),
    startWorker(
      QUEUE_NAMES.outboxRelay,
      outboxRelayProcessor({
        queues: relayTargets,
        pendingAgeMs: options.outbox.pendingAgeMs,
        logger,
      }),
      1,
    ),
  ];
  const scheduleRelay = () =>
    relayQueue.upsertJobScheduler(
      OUTBOX_RELAY_SCHEDULER_ID,
      { every: options.outbox.relayIntervalMs },
      {
        name: QUEUE_NAMES.outboxRelay,
        data: {},
        // A pass is worth nothing once the next one ran: keep a short history only.
        opts: { removeOnComplete: { count: 50 }, removeOnFail: { count: 50 } },
      },
    );
  const stats = options.stats
    ? startStatsReconciliation({ ...options, stats: options.stats, startWorker })
    : undefined;
  await scheduleRelay();
  await stats?.schedule();
  const campaignWorkers = await startCampaignWorkers({
    connection,
    queuePrefix,
    transport: options.campaigns.transport,
    mailFrom: options.mailFrom,
    siteUrl: options.siteUrl,
    mailLinkSecret: options.mailLinkSecret,
    messageIdDomain,
    logger,
    settings: { ...DEFAULT_CAMPAIGN_SETTINGS, ...options.campaigns },
  });
  // A Redis that came back without its data (no persistence, a failover to
  // an empty replica) has forgotten the scheduler: set it again on every
  // reconnection, or owed mail would wait for the next worker restart.
  const rescheduleRelay = () => {
    scheduleRelay().catch((error: unknown) =>
      logger.warn({ err: error }, 'could not schedule the outbox relay; will retry on reconnect'),
    );
    stats
      ?.schedule()
      .catch((error: unknown) =>
        logger.warn({ err: error }, 'could not schedule the stats reconciliation; will retry'),
      );
  };
  connection.on('ready', rescheduleRelay);

  return {
    async close() {
      connection.off('ready', rescheduleRelay);
      await Promise.all([...workers.map((worker) => worker.close()), campaignWorkers.close()]);
      await relayQueue.close();
      await stats?.close();
      await relayTargets.close();
    },
  };
}
