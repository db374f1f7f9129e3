import type { Redis } from '..';
import { markMailServerReachable, markMailServerUnreachable, readMailServerState } from '..';
import { connectSharedRedis } from '../testing/shared-redis';
import { uniqueName } from '../testing/file-database';

describe("the mail server's state", () => {
  let redis: Redis;
  let prefix: string;

  beforeAll(async () => {
    redis = await connectSharedRedis('consumer');
  });
  afterAll(() => redis.disconnect());
  beforeEach(() => {
    prefix = uniqueName('mail-server');
  });

  it('is reachable while nothing was noted', async () => {
    await expect(readMailServerState(redis, prefix)).resolves.toEqual({ status: 'reachable' });
  });

  it('keeps the start of an outage while later failures move the last check and error', async () => {
    const first = new Date('2026-11-28T08:00:00Z');
    const later = new Date('2026-11-28T08:00:20Z');
    await markMailServerUnreachable(redis, prefix, 'ECONNREFUSED', first);
    await markMailServerUnreachable(redis, prefix, 'ETIMEDOUT', later);

    await expect(readMailServerState(redis, prefix)).resolves.toEqual({
      status: 'unreachable',
      since: first,
      lastError: 'ETIMEDOUT',
      checkedAt: later,
    });
    expect(await redis.exists(`${prefix}:mail-server`)).toBe(1);
  });

  it('ends the outage on the first success, and the next one starts afresh', async () => {
    await markMailServerUnreachable(
      redis,
      prefix,
      'ECONNREFUSED',
      new Date('2026-11-28T08:00:00Z'),
    );
    await markMailServerReachable(redis, prefix);
    await expect(readMailServerState(redis, prefix)).resolves.toEqual({ status: 'reachable' });

    const next = new Date('2026-11-28T09:00:00Z');
    await markMailServerUnreachable(redis, prefix, 'EHOSTUNREACH', next);
    await expect(readMailServerState(redis, prefix)).resolves.toMatchObject({ since: next });
  });
});
