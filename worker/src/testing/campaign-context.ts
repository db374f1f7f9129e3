import { randomBytes } from 'node:crypto';
import { EventEmitter, once } from 'node:events';
import { Queue, QueueEvents } from 'bullmq';
import {
  QUEUE_NAMES,
  campaignDispatchJobId,
  withDatabaseName,
  type CampaignStatus,
} from '@agency/contracts';
import { Types } from 'mongoose';
import {
  connectDatabase,
  createLogger,
  createRedisConnection,
  disconnectDatabase,
  mailIdentityKey,
  waitUntilConnected,
  type Redis,
  mongoCampaignStore,
} from '@agency/platform';
import { createCampaignQueue, type CampaignQueue } from '@agency/backend';
import {
  createCampaignTransport,
  createSmtpCampaignMessenger,
  startCampaignEngine,
  type CampaignSendSettings,
  type RunningCampaignEngine,
} from '../campaigns';
import { loadWorkerConfig } from '../config';
import { TEST_SECRETS } from '@agency/platform/testing/test-secrets';
import {
  createQueuedCampaign,
  seedContacts,
  seedSubscribers,
  storedCampaign,
  type QueuedCampaignFields,
  type SeedContact,
  type SeedSubscriber,
} from '@agency/platform/testing/campaign-fixtures';
import {
  CampaignBatchModel,
  CampaignModel,
  CampaignOutcomeModel,
  type CampaignBatch,
  type OutcomeEntry,
} from '@agency/platform/testing/campaigns-models';

export const TEST_SITE_URL = 'http://site.test';
export const TEST_LINK_SECRET = TEST_SECRETS.MAIL_LINK_SECRET;

export interface CampaignContext {
  mongodbUri: string;
  redisUrl: string;
  queuePrefix: string;
  redis: Redis;
  dispatchQueue: Queue;
  sendQueue: Queue;
  testQueue: Queue;
  /** The queues the API's send controls add to (resume, resend). */
  controlQueue: CampaignQueue;
  seedContacts(contacts: readonly SeedContact[]): Promise<void>;
  seedSubscribers(subscribers: readonly SeedSubscriber[]): Promise<void>;
  /** A campaign marked queued with its dispatch job added, as the send route leaves it. */
  queueCampaign(fields?: QueuedCampaignFields & { addDispatch?: boolean }): Promise<string>;
  startWorker(
    smtpUrl: string,
    settings?: Partial<CampaignSendSettings>,
  ): Promise<RunningCampaignEngine>;
  /** Resolves once the campaign is in one of `statuses`, re-checking on every job event. */
  waitForStatus(id: string, statuses: readonly CampaignStatus[], timeoutMs?: number): Promise<void>;
  /** Resolves once no send or dispatch job is waiting, delayed or active. */
  waitUntilIdle(timeoutMs?: number): Promise<void>;
  campaign(id: string): Promise<Record<string, unknown>>;
  /** Every recipient line of the campaign's ledger, batch by batch. */
  ledger(id: string): Promise<LedgerLine[]>;
  /** The campaign's batch rosters, by round and number. */
  ledgerBatches(id: string): Promise<CampaignBatch[]>;
  close(): Promise<void>;
}

export interface LedgerLine {
  email: string;
  state: string;
  round: number;
  seq: number;
  attempts?: number | null;
  reason?: string | null;
}

/**
 * The campaign settings the worker runs with by default (its configuration's
 * schema holds them), with retries a test can wait for.
 */
export function campaignSettings(
  overrides: Partial<CampaignSendSettings> = {},
): CampaignSendSettings {
  const { campaigns } = loadWorkerConfig({
    MONGODB_URI: 'mongodb://127.0.0.1:27017/unused',
    REDIS_URL: 'redis://127.0.0.1:6379',
    SMTP_URL: 'smtp://127.0.0.1:25',
    MAIL_TO: 'inbox@agency.test',
    ...TEST_SECRETS,
  });
  const settings: CampaignSendSettings = campaigns;
  return { ...settings, retryDelayMs: 100, ...overrides };
}

export async function createCampaignContext(): Promise<CampaignContext> {
  const baseUri = process.env.MONGODB_URI;
  const redisUrl = process.env.REDIS_URL;
  if (!baseUri || !redisUrl) throw new Error('MONGODB_URI and REDIS_URL must be set for tests');
  const suffix = randomBytes(4).toString('hex');
  const mongodbUri = withDatabaseName(baseUri, `campaign_${suffix}`);
  const queuePrefix = `campaign-${suffix}`;
  const connected = await connectDatabase(mongodbUri);
  const redis = createRedisConnection(redisUrl, 'consumer');
  redis.on('error', () => undefined);
  await waitUntilConnected(redis, 5000);
  const queue = (name: string) => new Queue(name, { connection: redis, prefix: queuePrefix });
  const dispatchQueue = queue(QUEUE_NAMES.campaignDispatch);
  const sendQueue = queue(QUEUE_NAMES.campaignSend);
  const testQueue = queue(QUEUE_NAMES.campaignTestSend);
  const recoveryQueue = queue(QUEUE_NAMES.campaignRecovery);
  const controlQueue = createCampaignQueue(redis, queuePrefix);
  const logger = createLogger('test', process.env.TEST_LOG_LEVEL === 'debug' ? 'debug' : 'silent');
  const running: {
    workers: RunningCampaignEngine;
    connection: Redis;
    close(): Promise<void>;
  }[] = [];

  const url = new URL(redisUrl);
  const connection = { host: url.hostname, port: Number(url.port || 6379) };
  const jobEvents = new EventEmitter();
  const events = [QUEUE_NAMES.campaignDispatch, QUEUE_NAMES.campaignSend].map((name) => {
    const queueEvents = new QueueEvents(name, { connection, prefix: queuePrefix });
    queueEvents.on('error', () => undefined);
    for (const event of ['completed', 'failed', 'drained', 'delayed', 'active'] as const) {
      queueEvents.on(event, () => jobEvents.emit('job'));
    }
    return queueEvents;
  });
  await Promise.all(events.map((queueEvents) => queueEvents.waitUntilReady()));

  async function waitUntil(check: () => Promise<boolean>, timeoutMs: number, what: string) {
    const signal = AbortSignal.timeout(timeoutMs);
    for (;;) {
      if (await check()) return;
      try {
        // A job event, or at the latest a second: the store may change without one.
        await Promise.race([
          once(jobEvents, 'job', { signal }),
          new Promise((resolve) => setTimeout(resolve, 1000).unref()),
        ]);
      } catch {
        throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
      }
      if (signal.aborted) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    }
  }

  const ledgerBatches = (id: string) =>
    CampaignBatchModel.find({ campaign: new Types.ObjectId(id) })
      .sort({ round: 1, seq: 1 })
      .lean<CampaignBatch[]>();

  return {
    mongodbUri,
    redisUrl,
    queuePrefix,
    redis,
    dispatchQueue,
    sendQueue,
    testQueue,
    controlQueue,
    seedContacts,
    seedSubscribers,
    async queueCampaign(fields = {}) {
      const id = await createQueuedCampaign(fields);
      if (fields.addDispatch !== false) {
        await dispatchQueue.add(
          QUEUE_NAMES.campaignDispatch,
          { campaignId: id },
          { jobId: campaignDispatchJobId(id) },
        );
      }
      return id;
    },
    async startWorker(smtpUrl, settings = {}) {
      const workerConnection = createRedisConnection(redisUrl, 'consumer');
      workerConnection.on('error', () => undefined);
      const merged = campaignSettings(settings);
      const messenger = createSmtpCampaignMessenger({
        transport: createCampaignTransport(smtpUrl, merged.concurrency),
        mailFrom: 'Agency <no-reply@agency.test>',
        siteUrl: TEST_SITE_URL,
        mailLinkSecret: TEST_LINK_SECRET,
      });
      const workers = await startCampaignEngine({
        connection: workerConnection,
        queuePrefix,
        messenger,
        store: mongoCampaignStore,
        messageIdDomain: 'agency.test',
        identityKey: mailIdentityKey(TEST_LINK_SECRET),
        logger,
        settings: merged,
      });
      running.push({ workers, connection: workerConnection, close: () => messenger.close() });
      return workers;
    },
    waitForStatus(id, statuses, timeoutMs = 30_000) {
      return waitUntil(
        async () => {
          const campaign = await CampaignModel.findById(id, { status: 1 }).lean();
          return statuses.includes(campaign?.status as CampaignStatus);
        },
        timeoutMs,
        `campaign ${id} to be ${statuses.join(' or ')}`,
      );
    },
    waitUntilIdle(timeoutMs = 30_000) {
      return waitUntil(
        async () => {
          const counts = await Promise.all(
            [dispatchQueue, sendQueue].map((q) =>
              q.getJobCounts('waiting', 'delayed', 'active', 'prioritized'),
            ),
          );
          return counts.every((count) => Object.values(count).every((n) => n === 0));
        },
        timeoutMs,
        'the campaign queues to be idle',
      );
    },
    campaign: storedCampaign,
    ledgerBatches,
    async ledger(id) {
      const [batches, outcomeDocs] = await Promise.all([
        ledgerBatches(id),
        CampaignOutcomeModel.find({ campaign: new Types.ObjectId(id) }).lean(),
      ]);
      const outcomesOf = new Map(
        outcomeDocs.map((doc) => [
          doc._id,
          new Map<number, OutcomeEntry>(doc.outcomes.map((line) => [line.position, line])),
        ]),
      );
      return batches.flatMap(({ _id, round, seq, recipients }) =>
        recipients.map(({ email }, position) => {
          const outcome = outcomesOf.get(_id)?.get(position);
          return {
            email,
            state: outcome?.state ?? 'pending',
            round,
            seq,
            attempts: outcome?.attempts,
            reason: outcome?.reason,
          };
        }),
      );
    },
    async close() {
      for (const worker of running) {
        await worker.workers.close();
        await worker.close();
        worker.connection.disconnect();
      }
      await Promise.all(events.map((queueEvents) => queueEvents.close()));
      const queues = [dispatchQueue, sendQueue, testQueue, recoveryQueue];
      await Promise.all(queues.map((q) => q.obliterate({ force: true })));
      await Promise.all(queues.map((q) => q.close()));
      await controlQueue.close();
      const leftovers = await redis.keys(`${queuePrefix}:campaign:*`);
      if (leftovers.length > 0) await redis.del(...leftovers);
      redis.disconnect();
      await connected.connection.db?.dropDatabase();
      await disconnectDatabase();
    },
  };
}
