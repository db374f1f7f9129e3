import { Queue, Worker, type JobsOptions, type Processor, type WorkerOptions } from 'bullmq';
import {
  OUTBOX_RELAY_SCHEDULER_ID,
  QUEUE_NAMES,
  type OutboxRelayJob,
  type QueueName,
} from '@agency/contracts';
import {
  createKeptCounts,
  keptAudienceTotal,
  createMailQueues,
  erasureKeyOf,
  mailIdentityKey,
  migrateLegacyLedger,
  mongoCampaignStore,
  agencyTimeZoneSource,
  setAgencySettingsFallback,
  type KeptCounts,
  type ContactChanges,
  type Logger,
  type MailIdentityKey,
  type MailQueues,
  type Redis,
  type SubscriberChanges,
  allSubscriberChanges,
  createStalePeople,
  peopleSubscriberChanges,
  setPeopleRefreshLogger,
  type StalePeople,
} from '@agency/platform';
import type { MailTransport } from './mail/transport';
import { contactMailProcessor } from './jobs/contact-mail.processor';
import { newsletterConfirmationProcessor } from './jobs/newsletter-confirmation.processor';
import { outboxRelayProcessor } from './jobs/outbox-relay.processor';
import { newsletterRequestProcessor } from './jobs/newsletter-request.processor';
import { passwordResetProcessor } from './jobs/password-reset.processor';
import { privacyLinkProcessor } from './jobs/privacy-link.processor';
import {
  startStatsReconciliation,
  type StatsReconciliation,
} from './jobs/stats-reconcile.processor';
import { startMailServerProbe } from './jobs/mail-server-probe.processor';
import type { BounceMailboxSettings } from './bounces/bounce-mailbox-settings';
import type { BounceMailboxPolling } from './jobs/bounce-mailbox.processor';
import { keepJobScheduler, type KeptScheduler, type ScheduledJob } from './job-schedulers';
import { createMailServerWatch, type MailServerWatch } from './mail/mail-server-watch';
import { isConnectionFailure } from './mail/smtp-failure';
import { listImportProcessor } from './jobs/list-import.processor';
import { personErasureDepsOf, personErasureProcessor } from './jobs/person-erasure.processor';
import { startListDeletion, type ListDeletion } from './jobs/list-delete.processor';
import { startCampaignEventCounting } from './jobs/campaign-events.processor';
import { startTrackingKeyRetention } from './jobs/tracking-key-retention.processor';
import { startPeopleRebuild } from './jobs/people-rebuild.processor';
import {
  startMarkedPeopleRefresh,
  type MarkedPeopleRefresh,
} from './jobs/people-refresh.processor';
import { startRetention } from './jobs/retention.processor';
import {
  startCampaignEngine,
  type CampaignMessenger,
  type CampaignSendSettings,
  type RunningCampaignEngine,
} from './campaigns';

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
  /** Campaign sends: their settings, and their mail (over their own SMTP connections). */
  campaigns: CampaignSendSettings & { messenger: CampaignMessenger };
  /** The agency's time zone, which names the days of the dashboard's kept figures. */
  timeZone: string;
  /**
   * The reconciliation of the dashboard's kept figures, every
   * `reconcileIntervalMs`. The process always passes it; tests of the mail
   * jobs leave it out, so that no recount reads the store beside them.
   */
  stats?: { reconcileIntervalMs: number; settleMs?: number };
  /** Members removed per write when a list is deleted; tests make it small. */
  listDeleteChunkSize?: number;
  /** The mailbox returned mail is read from, every `pollIntervalMs`; none when unset. */
  bounceMailbox?: BounceMailboxSettings & { pollIntervalMs: number };
}

export interface RunningWorkers {
  /** Finishes the jobs in hand, then stops taking new ones. */
  close(): Promise<void>;
}

/** Message-IDs name the sender's own domain, as mail servers expect. */
function domainOf(mailbox: string): string {
  return /@([^\s>]+)>?\s*$/.exec(mailbox)?.[1] ?? 'agency.local';
}

/** What the mail jobs are given: the options, the sender's domain, the digest key and the agency's clock. */
type MailDeps = WorkersOptions & {
  messageIdDomain: string;
  identityKey: MailIdentityKey;
  agencyTimeZone: () => Promise<string>;
};

function mailDepsOf(options: WorkersOptions): MailDeps {
  const messageIdDomain = domainOf(options.mailFrom);
  // Every mail's Message-ID (and a campaign mail's return path) names its
  // recipient by a digest under this key: reports are checked against it.
  const identityKey = mailIdentityKey(options.mailLinkSecret);
  // The clock staff mail and the dashboard's days are on: the saved settings'.
  const agencyTimeZone = agencyTimeZoneSource(options.timeZone, options.logger);
  return { ...options, messageIdDomain, identityKey, agencyTimeZone };
}

type StartQueueWorker = <T>(
  name: QueueName,
  processor: Processor<T>,
  workerConcurrency?: number,
  extra?: Partial<WorkerOptions>,
) => Worker<T>;

/** Starts a queue's worker, which logs its failed jobs and its errors. */
function queueWorkerStarter({
  connection,
  queuePrefix,
  concurrency,
  logger,
}: WorkersOptions): StartQueueWorker {
  return function startWorker<T>(
    name: QueueName,
    processor: Processor<T>,
    workerConcurrency = concurrency,
    extra: Partial<WorkerOptions> = {},
  ) {
    const worker = new Worker<T>(name, processor, {
      connection,
      prefix: queuePrefix,
      concurrency: workerConcurrency,
      ...extra,
    });
    worker.on('failed', (job, error) => {
      logger.warn(
        { queue: name, jobId: job?.id, attempt: job?.attemptsMade, err: error.message },
        'job failed',
      );
    });
    worker.on('error', (error) => logger.error({ queue: name, err: error }, 'worker error'));
    return worker;
  };
}

/**
 * An enquiry's, a confirmation's or a reset's mail that could not connect
 * tells the dashboard of the outage too, even with no campaign sending;
 * BullMQ retries the job, and the probe notes the server's return.
 */
function outageNoter(mailServer: MailServerWatch, logger: Logger) {
  return (worker: Worker) =>
    worker.on('failed', (_job, error) => {
      if (!isConnectionFailure(error)) return;
      mailServer
        .unreachable(error)
        .catch((noteError: unknown) =>
          logger.warn({ err: noteError }, 'the mail server outage was not noted'),
        );
    });
}

interface QueueWorkerDeps {
  mailDeps: MailDeps;
  startWorker: StartQueueWorker;
  noteOutage: (worker: Worker) => Worker;
  relayTargets: MailQueues;
  changes: SubscriberChanges;
}

/** The workers of the mail queues, the subscription requests, the outbox relay and the list imports. */
function startQueueWorkers(
  options: WorkersOptions,
  { mailDeps, startWorker, noteOutage, relayTargets, changes }: QueueWorkerDeps,
): Worker[] {
  const { connection, queuePrefix, logger } = options;
  return [
    noteOutage(startWorker(QUEUE_NAMES.contactMail, contactMailProcessor(mailDeps))),
    noteOutage(
      startWorker(QUEUE_NAMES.newsletterConfirmation, newsletterConfirmationProcessor(mailDeps)),
    ),
    startWorker(
      QUEUE_NAMES.newsletterRequest,
      newsletterRequestProcessor({
        queues: relayTargets,
        changes,
        logger,
      }),
    ),
    noteOutage(startWorker(QUEUE_NAMES.passwordReset, passwordResetProcessor(mailDeps))),
    noteOutage(startWorker(QUEUE_NAMES.privacyLink, privacyLinkProcessor(mailDeps))),
    startWorker(
      QUEUE_NAMES.outboxRelay,
      outboxRelayProcessor({
        queues: relayTargets,
        pendingAgeMs: options.outbox.pendingAgeMs,
        logger,
      }),
      1,
    ),
    // One file at a time per process: an import holds its seen addresses in
    // memory (8 bytes each, outside the heap). A worker that dies mid-file stops renewing its lock, and
    // another takes the file over from its last saved chunk.
    startWorker(
      QUEUE_NAMES.listImport,
      listImportProcessor({
        connection,
        queuePrefix,
        logger,
        erasureKey: erasureKeyOf(options.mailLinkSecret),
      }),
      1,
      {
        lockDuration: options.campaigns.lockDurationMs,
        stalledInterval: options.campaigns.lockDurationMs,
        maxStalledCount: 10,
      },
    ),
  ];
}

/**
 * One erasure at a time per process. It deletes enquiries as the API does,
 * so the same kept figures and list index follow.
 */
function startErasureWorker(
  startWorker: StartQueueWorker,
  mailDeps: MailDeps,
  kept: KeptCounts,
): Worker {
  const deps = personErasureDepsOf({ ...mailDeps, keptContactChanges: kept.contactChanges });
  return startWorker(QUEUE_NAMES.personErasure, personErasureProcessor(deps), 1);
}

/** One relay pass per interval, on whichever worker is free. */
function scheduleOutboxRelay(
  relayQueue: Queue<OutboxRelayJob>,
  options: WorkersOptions,
): Promise<KeptScheduler> {
  return keepJobScheduler({
    queue: relayQueue,
    connection: options.connection,
    schedulerId: OUTBOX_RELAY_SCHEDULER_ID,
    upsert: () =>
      relayQueue.upsertJobScheduler(
        OUTBOX_RELAY_SCHEDULER_ID,
        { every: options.outbox.relayIntervalMs },
        {
          name: QUEUE_NAMES.outboxRelay,
          data: {},
          // A pass is worth nothing once the next one ran: keep a short history only.
          opts: { removeOnComplete: { count: 50 }, removeOnFail: { count: 50 } },
        },
      ),
    checkEveryMs: options.outbox.relayIntervalMs,
    logger: options.logger,
  });
}

interface ScheduledJobDeps {
  mailDeps: MailDeps;
  startWorker: StartQueueWorker;
  changes: SubscriberChanges;
  /** The figures' view of the enquiries, which the retention's anonymisation keeps right. */
  keptContactChanges: ContactChanges;
  /** The addresses whose people view waits for a refresh: marked by every writer, refreshed each second. */
  stalePeople: StalePeople;
}

async function startBounceMailbox(
  options: WorkersOptions,
  { mailDeps, startWorker, changes }: ScheduledJobDeps,
): Promise<BounceMailboxPolling | undefined> {
  if (!options.bounceMailbox) return undefined;
  // Loaded only when a mailbox is set: its IMAP client and mail parser
  // would otherwise weigh on every worker process (about 10 MB each).
  const { startBounceMailboxPolling } = await import('./jobs/bounce-mailbox.processor.js');
  return startBounceMailboxPolling({
    connection: options.connection,
    queuePrefix: options.queuePrefix,
    logger: options.logger,
    settings: options.bounceMailbox,
    changes,
    identityKey: mailDeps.identityKey,
    pollIntervalMs: options.bounceMailbox.pollIntervalMs,
    startWorker,
  });
}

interface ScheduledJobs {
  mailServerProbe: ScheduledJob;
  listDeletion: ListDeletion;
  stats: StatsReconciliation | undefined;
  bounces: BounceMailboxPolling | undefined;
  /** Campaign results: the event writer, and the keys' destruction after the retention. */
  campaignEvents: ScheduledJob;
  trackingRetention: ScheduledJob;
  /** The people view's daily rebuild (and its first fill). */
  peopleRebuild: ScheduledJob;
  /** The people of the addresses enquiries and subscriptions marked, recomputed every second. */
  markedPeople: MarkedPeopleRefresh;
  /** The retention rules' daily pass: unconfirmed sign-ups, old enquiries, the activity log. */
  retention: ScheduledJob;
}

/** The jobs on schedules of their own: the mail server probe, list deletion, figures' reconciliation, bounces. */
async function startScheduledJobs(
  options: WorkersOptions,
  deps: ScheduledJobDeps,
): Promise<ScheduledJobs> {
  const { connection, queuePrefix, logger } = options;
  const { mailDeps, startWorker } = deps;
  // Asks the SMTP server, during an outage a send noted, whether it is back.
  const mailServerProbe = await startMailServerProbe({
    redis: connection,
    queuePrefix,
    transport: options.transport,
    logger,
    everyMs: options.campaigns.mailServerProbeMs,
    startWorker,
  });
  // Its recovery pass runs as often as the outbox relay's: both rebuild from the store what Redis lost.
  const listDeletion = await startListDeletion({
    connection,
    queuePrefix,
    logger,
    chunkSize: options.listDeleteChunkSize,
    recoveryIntervalMs: options.outbox.relayIntervalMs,
    startWorker,
  });
  const stats = options.stats
    ? await startStatsReconciliation({
        connection,
        queuePrefix,
        logger,
        timeZone: mailDeps.agencyTimeZone,
        ...options.stats,
        startWorker,
      })
    : undefined;
  const bounces = await startBounceMailbox(options, deps);
  const upkeep = await startUpkeepJobs({
    connection,
    queuePrefix,
    logger,
    startWorker,
    stalePeople: deps.stalePeople,
  });
  const retention = await startRetention({
    connection,
    queuePrefix,
    logger,
    startWorker,
    keptContactChanges: deps.keptContactChanges,
  });
  return { mailServerProbe, listDeletion, stats, bounces, ...upkeep, retention };
}

/** The passes that keep what is derived from the store: campaign results, tracking keys, the people view. */
async function startUpkeepJobs(
  deps: Pick<WorkersOptions, 'connection' | 'queuePrefix' | 'logger'> & {
    startWorker: StartQueueWorker;
    stalePeople: StalePeople;
  },
): Promise<
  Pick<ScheduledJobs, 'campaignEvents' | 'trackingRetention' | 'peopleRebuild' | 'markedPeople'>
> {
  const campaignEvents = await startCampaignEventCounting(deps);
  const trackingRetention = await startTrackingKeyRetention(deps);
  const peopleRebuild = await startPeopleRebuild(deps);
  const markedPeople = startMarkedPeopleRefresh({
    stalePeople: deps.stalePeople,
    logger: deps.logger,
  });
  return { campaignEvents, trackingRetention, peopleRebuild, markedPeople };
}

interface CampaignSending {
  campaignEngine: RunningCampaignEngine;
  stopMigration: AbortController;
  ledgerMigration: Promise<unknown>;
}

/** The campaign engine, and the move of an old ledger in the background. */
async function startCampaignSending(
  options: WorkersOptions,
  mailDeps: MailDeps,
  kept: KeptCounts,
): Promise<CampaignSending> {
  const { connection, queuePrefix, logger } = options;
  const { messenger, ...campaignSettings } = options.campaigns;
  const campaignEngine = await startCampaignEngine({
    connection,
    queuePrefix,
    messenger,
    store: mongoCampaignStore,
    keptAudienceTotal: (target) => keptAudienceTotal(kept, target),
    messageIdDomain: mailDeps.messageIdDomain,
    identityKey: mailDeps.identityKey,
    logger,
    settings: campaignSettings,
  });
  // An installation from before the ledger per batch: its old ledger is moved in the background.
  // A stop ends it after the batch it is writing; the next start copies the rest.
  const stopMigration = new AbortController();
  const ledgerMigration = migrateLegacyLedger({
    batchSize: campaignSettings.batchSize,
    logger,
    signal: stopMigration.signal,
  }).catch((error: unknown) =>
    logger.error(
      { err: error },
      'the old campaign ledger was not moved; the next start tries again',
    ),
  );
  return { campaignEngine, stopMigration, ledgerMigration };
}

interface StartedWorkers {
  relaySchedule: KeptScheduler;
  campaigns: CampaignSending;
  workers: Worker[];
  scheduled: ScheduledJobs;
  relayQueue: Queue<OutboxRelayJob>;
  relayTargets: MailQueues;
}

/** Finishes the jobs in hand, then stops taking new ones. */
async function closeWorkers({
  relaySchedule,
  campaigns,
  workers,
  scheduled,
  relayQueue,
  relayTargets,
}: StartedWorkers): Promise<void> {
  relaySchedule.stop();
  campaigns.stopMigration.abort();
  await campaigns.ledgerMigration;
  await Promise.all([
    ...workers.map((worker) => worker.close()),
    campaigns.campaignEngine.close(),
    scheduled.listDeletion.close(),
  ]);
  // Side by side: the shutdown grace bounds the slowest pass, not their sum.
  await Promise.all([
    relayQueue.close(),
    scheduled.mailServerProbe.close(),
    scheduled.stats?.close(),
    scheduled.bounces?.close(),
    scheduled.campaignEvents.close(),
    scheduled.trackingRetention.close(),
    scheduled.peopleRebuild.close(),
    scheduled.markedPeople.close(),
    scheduled.retention.close(),
  ]);
  await relayTargets.close();
}

/**
 * One BullMQ Worker per mail queue, plus the outbox relay: a job scheduler
 * (upserted by every copy, stored once in Redis) runs one relay pass per
 * interval on whichever worker is free. More processes mean more throughput.
 */
export async function startWorkers(options: WorkersOptions): Promise<RunningWorkers> {
  const { connection, queuePrefix, logger } = options;
  // The agency's settings fall back on this environment until an admin saves them.
  setAgencySettingsFallback({ mailFrom: options.mailFrom, timeZone: options.campaigns.timeZone });
  const mailDeps = mailDepsOf(options);
  const noteOutage = outageNoter(createMailServerWatch(connection, queuePrefix, logger), logger);
  const startWorker = queueWorkerStarter(options);

  // Subscription requests recorded here move the dashboard's figures, as the API's writes do.
  const kept = createKeptCounts(connection, {
    prefix: queuePrefix,
    timeZone: mailDeps.agencyTimeZone,
    logger,
  });
  // ...and the people view, as they do.
  setPeopleRefreshLogger(logger);
  const stalePeople = createStalePeople(connection, queuePrefix);
  const changes = allSubscriberChanges(
    kept.subscriberChanges,
    peopleSubscriberChanges(stalePeople),
  );
  // The relay enqueues through queues of its own, on the worker's connection.
  const relayTargets = createMailQueues(connection, queuePrefix, options.mailJobOptions);
  const relayQueue = new Queue<OutboxRelayJob>(QUEUE_NAMES.outboxRelay, {
    connection,
    prefix: queuePrefix,
  });
  relayQueue.on('error', (error) => logger.warn({ err: error.message }, 'relay queue error'));

  const workers = startQueueWorkers(options, {
    mailDeps,
    startWorker,
    noteOutage,
    relayTargets,
    changes,
  });
  workers.push(startErasureWorker(startWorker, mailDeps, kept));
  const relaySchedule = await scheduleOutboxRelay(relayQueue, options);
  const scheduled = await startScheduledJobs(options, {
    mailDeps,
    startWorker,
    changes,
    keptContactChanges: kept.contactChanges,
    stalePeople,
  });
  const campaigns = await startCampaignSending(options, mailDeps, kept);
  const started = { relaySchedule, campaigns, workers, scheduled, relayQueue, relayTargets };
  return { close: () => closeWorkers(started) };
}
