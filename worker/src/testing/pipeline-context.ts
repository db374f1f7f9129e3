import { randomBytes } from 'node:crypto';
import { Queue, QueueEvents, type ConnectionOptions, type JobsOptions } from 'bullmq';
import { QUEUE_NAMES, withDatabaseName, type QueueName } from '@agency/contracts';
import {
  createApp,
  createPasswordResetQueue,
  loadApiConfig,
  type ApiConfig,
  type PasswordResetQueue,
} from '@agency/backend';
import {
  connectDatabase,
  createLogger,
  createMailQueues,
  createRedisConnection,
  disconnectDatabase,
  waitUntilConnected,
  type MailQueues,
  type Redis,
} from '@agency/platform';
import { createMailTransport } from '../mail/transport';
import { createCampaignTransport, createSmtpCampaignMessenger } from '../campaigns';
import { campaignSettings } from './campaign-context';
import { startWorkers, type RunningWorkers, type WorkersOptions } from '../workers';
import { TEST_SECRETS } from '@agency/platform/testing/test-secrets';

export const AGENCY_INBOX = 'inbox@agency.test';
export const SITE_URL = 'http://site.test';

export interface WorkerStartOptions {
  smtpUrl: string;
  /** How often the outbox relay runs; tests want it quick. */
  relayIntervalMs?: number;
  /** How long mail must be owed before the relay enqueues it again. */
  pendingAgeMs?: number;
  /** A mailbox to read returned mail from, as BOUNCE_MAILBOX_URL gives one. */
  bounceMailbox?: WorkersOptions['bounceMailbox'];
  /** Members removed per write when a list is deleted. */
  listDeleteChunkSize?: number;
}

/**
 * The whole mail pipeline in one test process, on real services: the API app
 * (driven through its callback), its queues, and on demand the worker.
 */
export interface PipelineContext {
  config: ApiConfig;
  app: ReturnType<typeof createApp>;
  queues: MailQueues;
  passwordResetQueue: PasswordResetQueue;
  startWorker(options: WorkerStartOptions): Promise<RunningWorkers>;
  /** A QueueEvents on one of this context's queues, ready to be waited on. */
  queueEvents(name: QueueName): Promise<QueueEvents>;
  close(): Promise<void>;
}

export interface PipelineOptions {
  /** Mail job options for both the API and the relay (e.g. fewer, quicker retries). */
  jobOptions?: JobsOptions;
  /** A Redis of the test's own, to stop or freeze; the shared one otherwise. */
  redisUrl?: string;
  env?: Record<string, string>;
}

/** BullMQ opens (and closes) its own blocking connection from these options. */
function connectionOptions(redisUrl: string): ConnectionOptions {
  const url = new URL(redisUrl);
  return { host: url.hostname, port: Number(url.port || 6379), maxRetriesPerRequest: null };
}

export async function createPipelineContext(
  options: PipelineOptions = {},
): Promise<PipelineContext> {
  const mongodbUri = process.env.MONGODB_URI;
  const sharedRedisUrl = process.env.REDIS_URL;
  if (!mongodbUri || !sharedRedisUrl) {
    throw new Error('MONGODB_URI and REDIS_URL must be set for tests');
  }
  const suffix = randomBytes(4).toString('hex');
  const config = loadApiConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    MONGODB_URI: withDatabaseName(mongodbUri, `pipeline_${suffix}`),
    REDIS_URL: options.redisUrl ?? sharedRedisUrl,
    QUEUE_PREFIX: `pipeline-${suffix}`,
    CONTACT_RATE_LIMIT_MAX: '1000',
    NEWSLETTER_RATE_LIMIT_MAX: '1000',
    NEWSLETTER_ADDRESS_RATE_LIMIT_MAX: '1000',
    NEWSLETTER_LINK_RATE_LIMIT_MAX: '1000',
    ...TEST_SECRETS,
    ...options.env,
  });
  const logger = createLogger('test', 'silent');
  const mongoose = await connectDatabase(config.mongodbUri);
  const producer = createRedisConnection(config.redisUrl, 'producer', {
    commandTimeoutMs: config.redisRequestTimeoutMs,
  });
  producer.on('error', () => undefined);
  await waitUntilConnected(producer, 5000);
  const queues = createMailQueues(producer, config.queuePrefix, options.jobOptions);
  const passwordResetQueue = createPasswordResetQueue(producer, config.queuePrefix);
  const app = createApp({ config, logger, queues, passwordResetQueue, redis: producer });
  const running: { workers: RunningWorkers; connection: Redis; close(): Promise<void> }[] = [];
  const events: QueueEvents[] = [];

  function consumerConnection(): Redis {
    const connection = createRedisConnection(config.redisUrl, 'consumer');
    connection.on('error', () => undefined);
    return connection;
  }

  return {
    config,
    app,
    queues,
    passwordResetQueue,
    async startWorker({
      smtpUrl,
      relayIntervalMs = 60_000,
      pendingAgeMs = 0,
      bounceMailbox,
      listDeleteChunkSize,
    }) {
      const connection = consumerConnection();
      const transport = createMailTransport(smtpUrl);
      const messenger = createSmtpCampaignMessenger({
        transport: createCampaignTransport(smtpUrl, 2),
        mailFrom: 'Agency <no-reply@agency.test>',
        siteUrl: SITE_URL,
        mailLinkSecret: config.mailLinkSecret,
      });
      const workers = await startWorkers({
        connection,
        queuePrefix: config.queuePrefix,
        concurrency: 2,
        transport,
        mailFrom: 'Agency <no-reply@agency.test>',
        mailTo: AGENCY_INBOX,
        siteUrl: SITE_URL,
        mailLinkSecret: config.mailLinkSecret,
        outbox: { relayIntervalMs, pendingAgeMs },
        logger,
        mailJobOptions: options.jobOptions,
        campaigns: { ...campaignSettings(), messenger },
        timeZone: config.timeZone,
        listDeleteChunkSize,
        ...(bounceMailbox ? { bounceMailbox } : {}),
      });
      running.push({
        workers,
        connection,
        close: async () => {
          transport.close();
          await messenger.close();
        },
      });
      return workers;
    },
    async queueEvents(name) {
      const queueEvents = new QueueEvents(name, {
        connection: connectionOptions(config.redisUrl),
        prefix: config.queuePrefix,
      });
      queueEvents.on('error', () => undefined);
      events.push(queueEvents);
      await queueEvents.waitUntilReady();
      return queueEvents;
    },
    async close() {
      for (const worker of running) {
        await worker.workers.close();
        await worker.close();
        worker.connection.disconnect();
      }
      await Promise.all(events.map((queueEvents) => queueEvents.close()));
      if (producer.status === 'ready') {
        const ownQueues = [
          QUEUE_NAMES.outboxRelay,
          QUEUE_NAMES.listDelete,
          QUEUE_NAMES.listDeleteRecovery,
          QUEUE_NAMES.personErasure,
          QUEUE_NAMES.privacyLink,
        ].map((name) => new Queue(name, { connection: producer, prefix: config.queuePrefix }));
        await Promise.all(
          [...queues.all(), ...ownQueues, passwordResetQueue].map((queue) =>
            queue.obliterate({ force: true }),
          ),
        );
        await Promise.all(ownQueues.map((queue) => queue.close()));
      }
      await queues.close();
      await passwordResetQueue.close();
      producer.disconnect();
      await mongoose.connection.db?.dropDatabase();
      await disconnectDatabase();
    },
  };
}
