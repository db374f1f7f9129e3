import { randomBytes } from 'node:crypto';
import type { JobsOptions } from 'bullmq';
import { withDatabaseName } from '@agency/contracts';
import {
  connectDatabase,
  createApp,
  createLogger,
  createMailQueues,
  createRedisConnection,
  disconnectDatabase,
  loadApiConfig,
  waitUntilConnected,
  type ApiConfig,
  type MailQueues,
  type Redis,
} from '@agency/backend';
import { createMailTransport } from '../mail/transport';
import { startWorkers, type RunningWorkers } from '../workers';

export const AGENCY_INBOX = 'inbox@agency.test';

/**
 * The whole enquiry pipeline in one test process, on real services: the API
 * app (driven through its callback), its queue, and on demand the worker.
 */
export interface PipelineContext {
  config: ApiConfig;
  app: ReturnType<typeof createApp>;
  queues: MailQueues;
  startWorker(smtpUrl: string): RunningWorkers;
  close(): Promise<void>;
}

export async function createPipelineContext(jobOptions?: JobsOptions): Promise<PipelineContext> {
  const mongodbUri = process.env.MONGODB_URI;
  const redisUrl = process.env.REDIS_URL;
  if (!mongodbUri || !redisUrl) throw new Error('MONGODB_URI and REDIS_URL must be set for tests');
  const suffix = randomBytes(4).toString('hex');
  const config = loadApiConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    MONGODB_URI: withDatabaseName(mongodbUri, `pipeline_${suffix}`),
    REDIS_URL: redisUrl,
    QUEUE_PREFIX: `pipeline-${suffix}`,
    CONTACT_RATE_LIMIT_MAX: '1000',
  });
  const logger = createLogger('test', 'silent');
  const mongoose = await connectDatabase(config.mongodbUri);
  const producer = createRedisConnection(config.redisUrl, 'producer');
  await waitUntilConnected(producer, 5000);
  const queues = createMailQueues(producer, config.queuePrefix, jobOptions);
  const app = createApp({ config, logger, queues, redis: producer });
  const running: { workers: RunningWorkers; connection: Redis; close(): void }[] = [];

  return {
    config,
    app,
    queues,
    startWorker(smtpUrl) {
      const connection = createRedisConnection(config.redisUrl, 'consumer');
      const transport = createMailTransport(smtpUrl);
      const workers = startWorkers({
        connection,
        queuePrefix: config.queuePrefix,
        concurrency: 2,
        transport,
        mailFrom: 'Agency <no-reply@agency.test>',
        mailTo: AGENCY_INBOX,
        logger,
      });
      running.push({ workers, connection, close: () => transport.close() });
      return workers;
    },
    async close() {
      for (const worker of running) {
        await worker.workers.close();
        worker.close();
        worker.connection.disconnect();
      }
      await queues.contactNotification.obliterate({ force: true });
      await queues.close();
      producer.disconnect();
      await mongoose.connection.db?.dropDatabase();
      await disconnectDatabase();
    },
  };
}
