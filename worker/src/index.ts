import {
  ConfigError,
  connectDatabase,
  createLogger,
  createRedisConnection,
  disconnectDatabase,
  loadWorkerConfig,
  runUntilSignalled,
} from '@agency/backend';
import { createMailTransport } from './mail/transport';
import { startWorkers } from './workers';

async function main(): Promise<void> {
  const config = loadWorkerConfig();
  const logger = createLogger('worker', config.logLevel);
  await connectDatabase(config.mongodbUri);
  const connection = createRedisConnection(config.redisUrl, 'consumer');
  connection.on('error', (error) => logger.warn({ err: error.message }, 'redis connection error'));
  const transport = createMailTransport(config.smtpUrl);
  const workers = startWorkers({
    connection,
    queuePrefix: config.queuePrefix,
    concurrency: config.concurrency,
    transport,
    mailFrom: config.mailFrom,
    mailTo: config.mailTo,
    logger,
  });
  logger.info({ concurrency: config.concurrency }, 'worker started');

  runUntilSignalled(logger, async () => {
    await workers.close();
    transport.close();
    connection.disconnect();
    await disconnectDatabase();
  });
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    console.error(error.message);
  } else {
    console.error('worker failed to start:', error instanceof Error ? error.message : error);
  }
  process.exit(1);
});
