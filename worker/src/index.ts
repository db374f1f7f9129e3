import {
  connectDatabase,
  createLogger,
  createRedisConnection,
  disconnectDatabase,
  exitOnStartupFailure,
  runUntilSignalled,
} from '@agency/backend/store';
import { loadWorkerConfig } from './config';
import { createMailTransport } from './mail/transport';
import { createCampaignTransport } from './campaigns/campaign-transport';
import { startWorkers } from './workers';

async function main(): Promise<void> {
  const config = loadWorkerConfig();
  const logger = createLogger('worker', config.logLevel);
  await connectDatabase(config.mongodbUri);
  const connection = createRedisConnection(config.redisUrl, 'consumer');
  connection.on('error', (error) => logger.warn({ err: error.message }, 'redis connection error'));
  const transport = createMailTransport(config.smtpUrl);
  const campaignTransport = createCampaignTransport(
    config.smtpUrl,
    config.campaigns.smtpConnections,
  );
  const workers = await startWorkers({
    connection,
    queuePrefix: config.queuePrefix,
    concurrency: config.concurrency,
    transport,
    mailFrom: config.mailFrom,
    mailTo: config.mailTo,
    siteUrl: config.siteUrl,
    mailLinkSecret: config.mailLinkSecret,
    outbox: config.outbox,
    logger,
    campaigns: { ...config.campaigns, transport: campaignTransport },
    stats: { reconcileIntervalMs: config.statsReconcileIntervalMs, timeZone: config.timeZone },
  });
  logger.info(
    { concurrency: config.concurrency, relayIntervalMs: config.outbox.relayIntervalMs },
    'worker started',
  );

  runUntilSignalled(logger, async () => {
    await workers.close();
    transport.close();
    await campaignTransport.close();
    connection.disconnect();
    await disconnectDatabase();
  });
}

main().catch(exitOnStartupFailure('worker'));
