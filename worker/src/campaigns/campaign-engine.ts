import { Semaphore } from 'async-mutex';
import { Queue, Worker, type JobsOptions, type Processor, type WorkerOptions } from 'bullmq';
import {
  CAMPAIGN_RECOVERY_SCHEDULER_ID,
  QUEUE_NAMES,
  type CampaignDispatchJob,
  type CampaignScheduleJob,
  type CampaignSendJob,
} from '@agency/contracts';
import {
  readAgencySettings,
  type Logger,
  type MailIdentityKey,
  type Redis,
  type CampaignStore,
} from '@agency/platform';
import {
  campaignDispatchProcessor,
  type CampaignDispatchDeps,
} from './campaign-dispatch.processor';
import type { CampaignMessenger } from './campaign-messenger';
import { campaignRecoveryProcessor } from './campaign-recovery.processor';
import { campaignScheduleProcessor } from './campaign-schedule.processor';
import { campaignSendProcessor } from './campaign-send.processor';
import { campaignTestSendProcessor } from './campaign-test-send.processor';
import { counterFolds, type CounterFolds } from './counter-folds';
import type { RoundEndDeps } from './round-end';
import { RoundTracker } from './round-tracker';
import { keepJobScheduler, type KeptScheduler } from '../job-schedulers';
import { createMailServerWatch } from '../mail/mail-server-watch';

/** How campaigns are sent; every figure comes from the worker's configuration. */
export interface CampaignSendSettings {
  /** Mails one worker process has in flight at once, over all its batches. */
  concurrency: number;
  /** Recipients per send job: one ledger document each. */
  batchSize: number;
  /** Batches one worker process runs at once: some send while others read or write the store. */
  batchesInFlight: number;
  /** Mails per second across every worker process; 0 for no limit. */
  ratePerSecond: number;
  /** The envelope sender bounces return to, made per recipient (VERP); unset keeps MAIL_FROM. */
  returnPath?: string;
  /** First pause before a batch with refused (4xx) mails is tried again; doubles each time. */
  retryDelayMs: number;
  retryAttempts: number;
  /**
   * While the SMTP server cannot be reached: how often the probe asks it
   * whether it is back, and how long a batch waits between looks.
   */
  mailServerProbeMs: number;
  /** A batch whose worker died is taken over after this long without a lock renewal. */
  lockDurationMs: number;
  /** How often campaigns left queued, or sending without a change, are looked for. */
  recoveryIntervalMs: number;
  /** How long a campaign may stay queued, or sending without a change, before recovery takes it up. */
  stalledAfterMs: number;
  /**
   * `AGENCY_TIME_ZONE`: the agency's clock until an admin saves its settings;
   * sending windows are then read on the settings' zone.
   */
  timeZone: string;
}

/** A batch's counters reach the campaign document at most this often per worker. */
const COUNTER_FOLD_INTERVAL_MS = 500;

export interface CampaignEngineOptions {
  connection: Redis;
  queuePrefix: string;
  messenger: CampaignMessenger;
  /** The sender's domain, for the Message-IDs. */
  messageIdDomain: string;
  /** The key the Message-IDs' and return paths' recipient digests are made with. */
  identityKey: MailIdentityKey;
  logger: Logger;
  settings: CampaignSendSettings;
  /** Where campaigns, their audience and their ledger are read and written: the composition root chooses. */
  store: CampaignStore;
  /** The dashboard's kept figures' count of a send's audience: the progress bar's total without a walk. */
  keptAudienceTotal?: CampaignDispatchDeps['keptAudienceTotal'];
}

export interface RunningCampaignEngine {
  close(): Promise<void>;
}

export function sendJobOptions(settings: CampaignSendSettings): JobsOptions {
  return {
    attempts: settings.retryAttempts,
    backoff: { type: 'exponential', delay: settings.retryDelayMs },
    // Idempotence lives in the ledger, not in finished job ids: keep little.
    removeOnComplete: { age: 3600, count: 1000 },
    removeOnFail: { age: 7 * 24 * 3600 },
  };
}

/**
 * Half the worker's mails in flight per wave: two batches send at once,
 * their waves' ends (each waiting for its slowest mail) falling apart.
 */
export function waveSizeOf(settings: CampaignSendSettings): number {
  return Math.max(1, Math.ceil(settings.concurrency / Math.min(2, settings.batchesInFlight)));
}

/**
 * BullMQ's limiter counts jobs across every worker of the queue; a job is a
 * batch, so the mail rate is held in whole batches.
 */
export function limiterOf(settings: CampaignSendSettings) {
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
export function deadWorkerLockOptions(settings: CampaignSendSettings): Partial<WorkerOptions> {
  return {
    lockDuration: settings.lockDurationMs,
    stalledInterval: settings.lockDurationMs,
    maxStalledCount: 10,
  };
}

/** Each batch's counters are folded into the campaign document in their turn among its writers. */
function campaignCounterFolds(
  store: CampaignStore,
  tracker: RoundTracker,
  logger: Logger,
): CounterFolds {
  return counterFolds(
    (campaign, progress) =>
      tracker.writeIfFree(campaign.id, async () => {
        await store.foldCounters(campaign, progress);
        return true;
      }),
    COUNTER_FOLD_INTERVAL_MS,
    logger,
  );
}

interface CampaignQueues {
  sendQueue: Queue<CampaignSendJob>;
  dispatchQueue: Queue<CampaignDispatchJob>;
  recoveryQueue: Queue<Record<string, never>>;
}

/** The queues the engine adds jobs to, each logging its errors. */
function openCampaignQueues({
  connection,
  queuePrefix,
  logger,
}: CampaignEngineOptions): CampaignQueues {
  const queue = <T>(name: string) => {
    const created = new Queue<T>(name, { connection, prefix: queuePrefix });
    created.on('error', (error) => logger.warn({ queue: name, err: error.message }, 'queue error'));
    return created;
  };
  return {
    sendQueue: queue<CampaignSendJob>(QUEUE_NAMES.campaignSend),
    dispatchQueue: queue<CampaignDispatchJob>(QUEUE_NAMES.campaignDispatch),
    recoveryQueue: queue<Record<string, never>>(QUEUE_NAMES.campaignRecovery),
  };
}

type StartCampaignWorker = <T>(
  name: string,
  processor: Processor<T>,
  extra?: Partial<WorkerOptions>,
) => Worker<T>;

/** Starts a campaign queue's worker, which logs its failed jobs and its errors. */
function campaignWorkerStarter({
  connection,
  queuePrefix,
  logger,
}: CampaignEngineOptions): StartCampaignWorker {
  return function startWorker<T>(
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
  };
}

// Read on use from the agency's settings, so an admin's new zone needs no restart.
const agencyTimeZone = async () => (await readAgencySettings()).timeZone;

/** The batches' worker: several batches at once, at the campaigns' rate, taken over from a dead worker. */
function startSendWorker(
  options: CampaignEngineOptions,
  roundDeps: RoundEndDeps,
  startWorker: StartCampaignWorker,
): Worker<CampaignSendJob> {
  const { connection, queuePrefix, logger, settings, messenger } = options;
  return startWorker(
    QUEUE_NAMES.campaignSend,
    campaignSendProcessor({
      ...roundDeps,
      messenger,
      mailServer: createMailServerWatch(connection, queuePrefix, logger),
      mailServerRetryMs: settings.mailServerProbeMs,
      mailSlots: new Semaphore(settings.concurrency),
      waveSize: waveSizeOf(settings),
      messageIdDomain: options.messageIdDomain,
      identityKey: options.identityKey,
      ...(settings.returnPath ? { returnPath: settings.returnPath } : {}),
      timeZone: agencyTimeZone,
      redis: connection,
      queuePrefix,
    }),
    {
      concurrency: settings.batchesInFlight,
      ...deadWorkerLockOptions(settings),
      limiter: limiterOf(settings),
    },
  );
}

interface CampaignWorkerDeps {
  roundDeps: RoundEndDeps;
  queues: CampaignQueues;
  startWorker: StartCampaignWorker;
}

/** The workers of the dispatch, send, test-send, schedule and recovery queues. */
function startCampaignWorkers(
  options: CampaignEngineOptions,
  { roundDeps, queues, startWorker }: CampaignWorkerDeps,
): Worker[] {
  const { logger, settings, messenger } = options;
  const { store, tracker } = roundDeps;
  const { sendQueue, dispatchQueue } = queues;
  const dispatchDeps = {
    ...roundDeps,
    sendQueue,
    batchSize: settings.batchSize,
    sendJobOptions: sendJobOptions(settings),
    olderPassWaitMs: settings.lockDurationMs * 2,
    messenger,
    ...(options.keptAudienceTotal ? { keptAudienceTotal: options.keptAudienceTotal } : {}),
  };
  return [
    startWorker(
      QUEUE_NAMES.campaignDispatch,
      campaignDispatchProcessor(dispatchDeps),
      deadWorkerLockOptions(settings),
    ),
    startSendWorker(options, roundDeps, startWorker),
    startWorker(
      QUEUE_NAMES.campaignTestSend,
      campaignTestSendProcessor({
        store,
        messenger,
        messageIdDomain: options.messageIdDomain,
        identityKey: options.identityKey,
        logger,
      }),
    ),
    startWorker<CampaignScheduleJob>(
      QUEUE_NAMES.campaignSchedule,
      campaignScheduleProcessor({ store, tracker, dispatchQueue, logger }),
    ),
    startWorker(
      QUEUE_NAMES.campaignRecovery,
      campaignRecoveryProcessor({
        ...dispatchDeps,
        dispatchQueue,
        stalledAfterMs: settings.stalledAfterMs,
        timeZone: agencyTimeZone,
      }),
    ),
  ];
}

/** One recovery pass per interval, on whichever worker is free. */
function scheduleRecovery(
  recoveryQueue: Queue<Record<string, never>>,
  { connection, settings, logger }: CampaignEngineOptions,
): Promise<KeptScheduler> {
  return keepJobScheduler({
    queue: recoveryQueue,
    connection,
    schedulerId: CAMPAIGN_RECOVERY_SCHEDULER_ID,
    upsert: () =>
      recoveryQueue.upsertJobScheduler(
        CAMPAIGN_RECOVERY_SCHEDULER_ID,
        { every: settings.recoveryIntervalMs },
        {
          name: QUEUE_NAMES.campaignRecovery,
          data: {},
          opts: { removeOnComplete: { count: 20 }, removeOnFail: { count: 20 } },
        },
      ),
    checkEveryMs: settings.recoveryIntervalMs,
    logger,
  });
}

/**
 * The campaign engine: the workers of the dispatch, send, test-send and
 * recovery queues, and the recovery's job scheduler. It reaches the store
 * and the mail only through `CampaignStore` and `CampaignMessenger`.
 */
export async function startCampaignEngine(
  options: CampaignEngineOptions,
): Promise<RunningCampaignEngine> {
  const { connection, queuePrefix, logger } = options;
  const { store } = options;
  const tracker = new RoundTracker(connection, queuePrefix);
  const folds = campaignCounterFolds(store, tracker, logger);
  const queues = openCampaignQueues(options);
  const roundDeps = { store, tracker, folds, logger };
  const startWorker = campaignWorkerStarter(options);
  const workers = startCampaignWorkers(options, { roundDeps, queues, startWorker });
  const recoverySchedule = await scheduleRecovery(queues.recoveryQueue, options);

  return {
    async close() {
      recoverySchedule.stop();
      await Promise.all(workers.map((worker) => worker.close()));
      folds.close();
      await Promise.all([
        queues.sendQueue.close(),
        queues.dispatchQueue.close(),
        queues.recoveryQueue.close(),
      ]);
    },
  };
}
