import {
  createLogger,
  markMailServerUnreachable,
  readMailServerState,
  type Redis,
} from '@agency/platform';
import { connectSharedRedis } from '@agency/platform/testing/shared-redis';
import { uniqueName } from '@agency/platform/testing/file-database';
import { createMailTransport, type MailTransport } from '../mail/transport';
import { startSmtpSink, type SmtpSink } from '../testing/smtp-sink';
import { mailServerProbeProcessor } from './mail-server-probe.processor';

describe('the mail server probe', () => {
  let redis: Redis;
  let smtp: SmtpSink;
  let transport: MailTransport;
  let prefix: string;

  beforeAll(async () => {
    redis = await connectSharedRedis('consumer');
  });
  afterAll(() => redis.disconnect());
  beforeEach(async () => {
    prefix = uniqueName('probe');
    smtp = await startSmtpSink();
    transport = createMailTransport(smtp.url);
  });
  afterEach(async () => {
    transport.close();
    await smtp.close();
  });

  const probe = () =>
    mailServerProbeProcessor({
      redis,
      queuePrefix: prefix,
      transport,
      logger: createLogger('test', 'silent'),
    })();

  it('does not connect while no outage is noted', async () => {
    await expect(probe()).resolves.toBe('not-needed');
    expect(smtp.connectionsOpened()).toBe(0);
  });

  it('keeps the outage and its start while the server still refuses, and ends it once it answers', async () => {
    const since = new Date('2026-11-28T08:00:00Z');
    await markMailServerUnreachable(redis, prefix, 'ECONNREFUSED', since);
    await smtp.stop();

    await expect(probe()).resolves.toBe('unreachable');
    const still = await readMailServerState(redis, prefix);
    expect(still).toMatchObject({ status: 'unreachable', since, lastError: 'ECONNREFUSED' });
    expect(still.status === 'unreachable' && still.checkedAt.getTime()).toBeGreaterThan(
      since.getTime(),
    );

    await smtp.restart();
    await expect(probe()).resolves.toBe('reachable');
    expect(smtp.connectionsOpened()).toBe(1);
    await expect(readMailServerState(redis, prefix)).resolves.toEqual({ status: 'reachable' });
  });
});
