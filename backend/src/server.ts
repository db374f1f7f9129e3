import { createServer } from 'node:http';
import { loadApiConfig } from './config';
import {
  createLogger,
  connectDatabase,
  disconnectDatabase,
  createRedisConnection,
  onRedisError,
  waitUntilConnected,
  createMailQueues,
  exitOnStartupFailure,
  runUntilSignalled,
} from '@agency/platform';
import { createApp } from './app';
import { createCampaignQueue } from './queues/campaign-queue';
import { createPasswordResetQueue } from './queues/password-reset-queue';
import { createPrivacyLinkQueue } from './queues/privacy-link-queue';
import { ensureBootstrapAdmin, ensureDemoAdmin } from './modules/users';
import { createTrackingEventBuffer } from './modules/tracking';
import { createImageProcessPool } from './modules/media';

async function main(): Promise<void> {
  const config = loadApiConfig();
  const logger = createLogger('api', config.logLevel);

  await connectDatabase(config.mongodbUri);
  // Redis may come up later: the API still takes enquiries meanwhile
  // (stored as pending) and reports Redis as down on /api/health.
  const redis = createRedisConnection(config.redisUrl, 'producer', {
    commandTimeoutMs: config.redisRequestTimeoutMs,
    sentinel: config.redisSentinel,
  });
  onRedisError(redis, config.redisSentinel, (reason) =>
    logger.warn({ err: reason }, 'redis connection error'),
  );
  if (!(await waitUntilConnected(redis, 5000))) logger.warn('redis not reachable yet');
  const queues = createMailQueues(redis, config.queuePrefix);
  const campaignQueue = createCampaignQueue(redis, config.queuePrefix);
  const passwordResetQueue = createPasswordResetQueue(redis, config.queuePrefix);
  const privacyLinkQueue = createPrivacyLinkQueue(redis, config.queuePrefix);

  if (config.demo.enabled) {
    await ensureDemoAdmin(config.demo);
    logger.warn({ username: config.demo.username }, 'demo mode: demo admin is available');
  }
  if (config.bootstrapAdmin && (await ensureBootstrapAdmin(config.bootstrapAdmin))) {
    logger.info({ username: config.bootstrapAdmin.username }, 'first admin created');
  }

  const trackingEvents = createTrackingEventBuffer({
    connection: redis,
    prefix: config.queuePrefix,
    logger,
  });

  const imageProcessor = createImageProcessPool({
    concurrency: config.media.processingConcurrency,
  });
  const app = createApp({
    config,
    logger,
    queues,
    campaignQueue,
    passwordResetQueue,
    privacyLinkQueue,
    redis,
    trackingEvents,
    imageProcessor,
  });
  const server = createServer(app.callback());
  await new Promise<void>((resolve) => server.listen(config.port, config.host, resolve));
  logger.info({ host: config.host, port: config.port }, 'api listening');

  runUntilSignalled(logger, async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    // The opens and clicks answered last are handed to Redis before it is let go.
    await trackingEvents.close();
    await imageProcessor.close();
    await queues.close();
    await campaignQueue.close();
    await passwordResetQueue.close();
    await privacyLinkQueue.close();
    redis.disconnect();
    await disconnectDatabase();
  });
}

main().catch(exitOnStartupFailure('api'));
