import { Queue, type JobsOptions } from 'bullmq';
import mongoose from 'mongoose';
import { QUEUE_NAMES, withDatabaseName } from '@agency/contracts';
import { createApp } from '../app';
import { loadApiConfig, type ApiConfig } from '../config';
import {
  connectDatabase,
  disconnectDatabase,
  createLogger,
  createMailQueues,
  type MailQueues,
  createRedisConnection,
  waitUntilConnected,
  type Logger,
  type Redis,
} from '@agency/platform';
import { uniqueName } from '@agency/platform/testing/file-database';
import { TEST_SECRETS } from '@agency/platform/testing/test-secrets';
import { createCampaignQueue, type CampaignQueue } from '../queues/campaign-queue';
import { createPasswordResetQueue, type PasswordResetQueue } from '../queues/password-reset-queue';
import { createPrivacyLinkQueue, type PrivacyLinkQueue } from '../queues/privacy-link-queue';

/**
 * Real services for one test file: its own MongoDB database and its own
 * queue prefix on the shared servers that the jest global setup provides.
 */
export interface TestContext {
  config: ApiConfig;
  redis: Redis;
  queues: MailQueues;
  campaignQueue: CampaignQueue;
  passwordResetQueue: PasswordResetQueue;
  /** A person's own download and erasure link mails. */
  privacyLinkQueue: PrivacyLinkQueue;
  app: ReturnType<typeof createApp>;
  close(): Promise<void>;
}

// Jest gives each test file its own module registry, so this is one database
// per file, shared by every context the file creates (mongoose has a single
// default connection).
const fileDatabaseName = uniqueName('test').replace('-', '_');
let openContexts = 0;

export async function createTestContext(
  options: {
    env?: Record<string, string>;
    redisUrl?: string;
    jobOptions?: JobsOptions;
    /** The API's logger, for a test that reads what it logs; silent otherwise. */
    logger?: Logger;
  } = {},
): Promise<TestContext> {
  const baseUri = process.env.MONGODB_URI;
  const redisUrl = process.env.REDIS_URL;
  if (!baseUri || !redisUrl) throw new Error('MONGODB_URI and REDIS_URL must be set for tests');
  const config = loadApiConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    MONGODB_URI: withDatabaseName(baseUri, fileDatabaseName),
    REDIS_URL: options.redisUrl ?? redisUrl,
    QUEUE_PREFIX: uniqueName('test'),
    CONTACT_RATE_LIMIT_MAX: '1000',
    NEWSLETTER_RATE_LIMIT_MAX: '1000',
    NEWSLETTER_ADDRESS_RATE_LIMIT_MAX: '1000',
    NEWSLETTER_LINK_RATE_LIMIT_MAX: '1000',
    PASSWORD_RESET_RATE_LIMIT_MAX: '1000',
    PASSWORD_RESET_ADDRESS_RATE_LIMIT_MAX: '1000',
    // Tests of other areas sign in with the password alone; the two-factor
    // tests name the roles that need a second factor.
    TWO_FACTOR_REQUIRED_ROLES: 'none',
    ...TEST_SECRETS,
    ...options.env,
  });
  if (openContexts === 0) await connectDatabase(config.mongodbUri);
  openContexts += 1;
  const redis = createRedisConnection(config.redisUrl, 'producer', {
    commandTimeoutMs: config.redisRequestTimeoutMs,
  });
  redis.on('error', () => undefined);
  await waitUntilConnected(redis, options.redisUrl ? 500 : 5000);
  const queues = createMailQueues(redis, config.queuePrefix, options.jobOptions);
  const campaignQueue = createCampaignQueue(redis, config.queuePrefix);
  const passwordResetQueue = createPasswordResetQueue(redis, config.queuePrefix);
  const privacyLinkQueue = createPrivacyLinkQueue(redis, config.queuePrefix);
  const app = createApp({
    passwordResetQueue,
    privacyLinkQueue,
    config,
    logger: options.logger ?? createLogger('api', 'silent'),
    queues,
    campaignQueue,
    redis,
  });
  return {
    config,
    redis,
    queues,
    campaignQueue,
    passwordResetQueue,
    privacyLinkQueue,
    app,
    async close() {
      if (redis.status === 'ready') {
        await Promise.all(queues.all().map((queue) => queue.obliterate({ force: true })));
        await campaignQueue.dispatch.obliterate({ force: true });
        await campaignQueue.testSend.obliterate({ force: true });
        await passwordResetQueue.obliterate({ force: true });
        await privacyLinkQueue.obliterate({ force: true });
        // Erasure jobs carry an address: none stays behind a test file.
        const erasures = new Queue(QUEUE_NAMES.personErasure, {
          connection: redis,
          prefix: config.queuePrefix,
        });
        await erasures.obliterate({ force: true });
        await erasures.close();
      }
      await queues.close();
      await campaignQueue.close();
      await passwordResetQueue.close();
      await privacyLinkQueue.close();
      redis.disconnect();
      openContexts -= 1;
      if (openContexts === 0) {
        await mongoose.connection.db?.dropDatabase().catch(() => undefined);
        await disconnectDatabase();
      }
    },
  };
}
