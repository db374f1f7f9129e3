import {
  connectDatabase,
  createLogger,
  createRedisConnection,
  disconnectDatabase,
  onRedisError,
  exitOnStartupFailure,
  runUntilSignalled,
} from '@agency/platform';
import { loadWorkerConfig } from './config';
import { createMailTransport } from './mail/transport';
import { createCampaignTransport, createSmtpCampaignMessenger } from './campaigns';
import { startWorkers } from './workers';
import { mailboxLabel } from './bounces/bounce-mailbox-settings';

async function main(): Promise<void> {
  const config = loadWorkerConfig();
  const logger = createLogger('worker', config.logLevel);
  await connectDatabase(config.mongodbUri);
  const connection = createRedisConnection(config.redisUrl, 'consumer', {
    sentinel: config.redisSentinel,
  });
  onRedisError(connection, config.redisSentinel, (reason) =>
    logger.warn({ err: reason }, 'redis connection error'),
  );
  const transport = createMailTransport(config.smtpUrl);
  const { smtpConnections, ...campaignSettings } = config.campaigns;
  const campaignMessenger = createSmtpCampaignMessenger({
    transport: createCampaignTransport(config.smtpUrl, smtpConnections),
    mailFrom: config.mailFrom,
    siteUrl: config.siteUrl,
    mailLinkSecret: config.mailLinkSecret,
  });
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
    campaigns: { ...campaignSettings, messenger: campaignMessenger },
    timeZone: config.timeZone,
    stats: { reconcileIntervalMs: config.statsReconcileIntervalMs },
    ...(config.bounceMailbox ? { bounceMailbox: config.bounceMailbox } : {}),
  });
  logger.info(
    {
      concurrency: config.concurrency,
      relayIntervalMs: config.outbox.relayIntervalMs,
      bounceMailbox: config.bounceMailbox
        ? { ...mailboxLabel(config.bounceMailbox), everyMs: config.bounceMailbox.pollIntervalMs }
        : 'off',
    },
    'worker started',
  );

  runUntilSignalled(logger, async () => {
    await workers.close();
    transport.close();
    await campaignMessenger.close();
    connection.disconnect();
    await disconnectDatabase();
  });
}

main().catch(exitOnStartupFailure('worker'));
