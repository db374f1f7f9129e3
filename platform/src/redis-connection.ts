import { Redis } from 'ioredis';
import { withTimeout } from './timeout';

export type { Redis };

/** How long an API request waits for any one Redis reply unless told otherwise. */
export const DEFAULT_REDIS_REQUEST_TIMEOUT_MS = 500;

/**
 * The API produces jobs and must answer quickly even when Redis is away: its
 * connection does not queue commands while offline, so an enqueue fails fast
 * and the outbox relay sends the job later. A frozen Redis (stopped process,
 * network partition) keeps the socket open and never replies, so every
 * command also gives up after `commandTimeoutMs`; the rate limiter then lets
 * the request through and the mail stays owed in MongoDB.
 * Workers block on Redis, which BullMQ requires to retry forever
 * (maxRetriesPerRequest: null) and never to time out a blocking command.
 */
export function createRedisConnection(
  url: string,
  role: 'producer' | 'consumer',
  { commandTimeoutMs = DEFAULT_REDIS_REQUEST_TIMEOUT_MS }: { commandTimeoutMs?: number } = {},
): Redis {
  const producer = role === 'producer';
  return new Redis(url, {
    maxRetriesPerRequest: producer ? 1 : null,
    enableOfflineQueue: !producer,
    ...(producer ? { commandTimeout: commandTimeoutMs } : {}),
    connectTimeout: 5000,
    retryStrategy: (attempt) => Math.min(attempt * 200, 5000),
  });
}

/** Waits until the connection is ready, or gives up quietly after `timeoutMs`. */
export async function waitUntilConnected(redis: Redis, timeoutMs: number): Promise<boolean> {
  if (redis.status === 'ready') return true;
  return new Promise((resolve) => {
    const timer = setTimeout(() => done(false), timeoutMs);
    const onReady = () => done(true);
    function done(ready: boolean) {
      clearTimeout(timer);
      redis.off('ready', onReady);
      resolve(ready);
    }
    redis.on('ready', onReady);
  });
}

export async function isRedisUp(redis: Redis, timeoutMs = 2000): Promise<boolean> {
  if (redis.status !== 'ready') return false;
  return withTimeout(redis.ping(), timeoutMs).then(
    (reply) => reply === 'PONG',
    () => false,
  );
}
