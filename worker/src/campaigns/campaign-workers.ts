import { Queue, Worker, type JobsOptions, type Processor, type WorkerOptions } from 'bullmq';
import {
  CAMPAIGN_QUEUE_NAMES,
  CAMPAIGN_RECOVERY_SCHEDULER_ID,
  QUEUE_NAMES,
  type CampaignDispatchJob,
  type CampaignSendJob,
} from '@agency/contracts';
import type { Logger, Redis } from '@agency/backend/store';
import type { CampaignTransport } from './campaign-transport';
import { campaignDispatchProcessor } from '../jobs/campaign-dispatch.processor';
import { campaignSendProcessor } from '../jobs/campaign-send.processor';
import { campaignTestSendProcessor } from '../jobs/campaign-test-send.processor';
import { campaignRecoveryProcessor } from '../jobs/campaign-recovery.processor';
import { SendLedger } from './send-ledger';
import { keepJobScheduler } from '../job-schedulers';

/** How campaigns are sent; every figure comes from the worker's configuration. */
export interface CampaignSendSettings {
  /** Send jobs (batches) one worker process runs at once: its mails in flight. */
  concurrency: number;
  /** Recipients per send job. */
  batchSize: number;
  /** Mails per second across every worker process; 0 for no limit. */
  ratePerSecond: number;
  /** First pause before a batch with refused (4xx) mails is tried again; doubles each time. */
  retryDelayMs: number;
  retryAttempts: number;
  /** A batch whose worker died is taken over after this long without a lock renewal. */
  lockDurationMs: number;
  /** How often queued campaigns without a dispatch are looked for, and how old they must be. */
  recoveryIntervalMs: number;
  queuedAgeMs: number;
}

/** The worker configuration's defaults (see worker/src/config.ts). */
export const DEFAULT_CAMPAIGN_SETTINGS: CampaignSendSettings = {
  concurrency: 10,
  batchSize: 50,
  ratePerSecond: 0,
  retryDelayMs: 5000,
  retryAttempts: 8,
  lockDurationMs: 30_000,
  recoveryIntervalMs: 30_000,
  queuedAgeMs: 60_000,
};

export interface CampaignWorkersOptions {
  connection: Redis;
  queuePrefix: string;
  transport: CampaignTransport;
  mailFrom: string;
  siteUrl: string;
  mailLinkSecret: string;
  messageIdDomain: string;
  logger: Logger;
  settings: CampaignSendSettings;
}

export interface RunningCampaignWorkers {
  close(): Promise<void>;
}

export function sendJobOptions(settings: CampaignSendSettings): JobsOptions {
  return {
    attempts: settings.retryAttempts,
    backoff: { type: 'exponential', delay: settings.retryDelayMs },
    // Idempotence lives in the send ledger, not in finished job ids: keep little.
    removeOnComplete: { age: 3600, count: 1000 },
    removeOnFail: { age: 7 * 24 * 3600 },
  };
}

/**
 * BullMQ's limiter counts jobs across every worker of the queue; a job is a
 * batch, so the mail rate is held in whole batches.
 */
function limiterOf(settings: CampaignSendSettings) {
  if (settings.ratePerSecond <= 0) return undefined;
  const batchesPerSecond = settings.ratePerSecond / settings.batchSize;
  return batchesPerSecond >= 1
    ? { max: Math.floor(batchesPerSecond), duration: 1000 }
    : { max: 1, duration: Math.ceil(1000 / batchesPerSecond) };
}

/**
 * A job whose worker died stops renewing its lock: after `lockDurationMs`
 * another worker takes it over. A campaign batch may be taken over several
 * times (each crash) rather than fail and leave its recipients unsent.
 */
function takeOver(settings: CampaignSendSettings): Partial<WorkerOptions> {
  return {
    lockDuration: settings.lockDurationMs,
    stalledInterval: settings.lockDurationMs,
    maxStalledCount: 10,
  };
}

/** The campaign queues' workers: dispatch, sends, test sends, and the recovery scheduler. */
export async function startCampaignWorkers(
  options: CampaignWorkersOptions,
): Promise<RunningCampaignWorkers> {
  const { connection, queuePrefix, logger, settings } = options;
  const ledger = new SendLedger(connection, queuePrefix);
  const queue = <T>(name: string) => {
    const created = new Queue<T>(name, { connection, prefix: queuePrefix });
    created.on('error', (error) => logger.warn({ queue: name, err: error.message }, 'queue error'));
    return created;
  };
  const sendQueue = queue<CampaignSendJob>(CAMPAIGN_QUEUE_NAMES.send);
  const dispatchQueue = queue<CampaignDispatchJob>(QUEUE_NAMES.campaignDispatch);
  const recoveryQueue = queue<Record<string, never>>(CAMPAIGN_QUEUE_NAMES.recovery);

  function startWorker<T>(
    name: string,
    processor: Processor<T>,
    extra: Partial<WorkerOptions> = {},
  ) {
    const worker = new Worker<T>(name, processor, {
      connection,
      prefix: queuePrefix,
      concurrency: 1,
      ...extra,
    });
    worker.on('failed', (job, error) =>
      logger.warn({ queue: name, jobId: job?.id, err: error.message }, 'campaign job failed'),
    );
    worker.on('error', (error) => logger.error({ queue: name, err: error }, 'worker error'));
    return worker;
  }

  const mailDeps = {
    transport: options.transport,
    mailFrom: options.mailFrom,
    siteUrl: options.siteUrl,
    mailLinkSecret: options.mailLinkSecret,
    messageIdDomain: options.messageIdDomain,
  };
  const workers = [
    startWorker(
      QUEUE_NAMES.campaignDispatch,
      campaignDispatchProcessor({
        sendQueue,
        ledger,
        batchSize: settings.batchSize,
        sendJobOptions: sendJobOptions(settings),
        logger,
      }),
      takeOver(settings),
    ),
    startWorker(CAMPAIGN_QUEUE_NAMES.send, campaignSendProcessor({ ...mailDeps, ledger, logger }), {
      concurrency: settings.concurrency,
      ...takeOver(settings),
      limiter: limiterOf(settings),
    }),
    startWorker(CAMPAIGN_QUEUE_NAMES.test, campaignTestSendProcessor({ ...mailDeps, logger })),
    startWorker(
      CAMPAIGN_QUEUE_NAMES.recovery,
      campaignRecoveryProcessor({ dispatchQueue, queuedAgeMs: settings.queuedAgeMs, logger }),
    ),
  ];

  const recoverySchedule = await keepJobScheduler({
    queue: recoveryQueue,
    connection,
    schedulerId: CAMPAIGN_RECOVERY_SCHEDULER_ID,
    upsert: () =>
      recoveryQueue.upsertJobScheduler(
        CAMPAIGN_RECOVERY_SCHEDULER_ID,
        { every: settings.recoveryIntervalMs },
        {
          name: CAMPAIGN_QUEUE_NAMES.recovery,
          data: {},
          opts: { removeOnComplete: { count: 20 }, removeOnFail: { count: 20 } },
        },
      ),
    checkEveryMs: settings.recoveryIntervalMs,
    logger,
  });

  return {
    async close() {
      recoverySchedule.stop();
      await Promise.all(workers.map((worker) => worker.close()));
      await Promise.all([sendQueue.close(), dispatchQueue.close(), recoveryQueue.close()]);
    },
  };
}
