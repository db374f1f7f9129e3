import { createRedisConnection, waitUntilConnected, type Redis } from '..';

/**
 * A connection to the Redis the jest global setup shares between test files,
 * for tests of Redis calls without the app (keys go under a prefix of the
 * test's own). `producer` is the API's kind of connection, `consumer` the
 * worker's.
 */
export async function connectSharedRedis(role: 'producer' | 'consumer'): Promise<Redis> {
  const url = process.env.REDIS_URL;
  if (!url) throw new Error('REDIS_URL must be set for tests');
  const redis = createRedisConnection(url, role);
  await waitUntilConnected(redis, 5000);
  return redis;
}
