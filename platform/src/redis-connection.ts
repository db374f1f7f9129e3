import { Redis, type RedisOptions } from 'ioredis';
import type { RedisSentinelConfig } from './config';
import { withTimeout } from './timeout';

export type { Redis };

/** What a connection reaches of ioredis's Sentinel connector (ioredis 5): its failover detector. */
interface SentinelConnectorParts {
  failoverDetector?: { cleanup(): void };
}

/**
 * A Sentinel connection that no failover announcement can end. ioredis's
 * failover detector (the +switch-master subscription, made on each
 * connection) outlives the connection it was made for: when a new primary
 * is announced after the connection was lost, while it is asking the
 * Sentinels where the primary is, the detector closes the search, and ioredis
 * takes that for a close of ours. The connection then ends for good
 * ("Connection is closed."), refusing every command queued meanwhile and from
 * then on. After a primary dies that is just when the announcement comes: a
 * worker could then neither finish, fail nor renew the lock of the batches in
 * hand, nor look for stalled ones, and sending stalled until another worker's
 * stalled-job check or the ledger's recovery took them up (45 s, or never
 * when every worker's connection had ended). A lost connection has nothing
 * left to leave, and asks the Sentinels afresh anyway: its detector is
 * dropped when it closes, and the next connection subscribes again.
 * BullMQ's connections are duplicates of this one, and alike.
 */
class SentinelFollowingRedis extends Redis {
  /** Without `url`, `options` say where (a duplicate's: ioredis skips an undefined URL). */
  constructor(url: string | undefined, options: RedisOptions) {
    super(url as string, options);
    this.on('close', () => this.#dropFailoverDetector());
  }

  override duplicate(override?: Partial<RedisOptions>): Redis {
    return new SentinelFollowingRedis(undefined, { ...this.options, ...override });
  }

  #dropFailoverDetector(): void {
    const { connector } = this as unknown as { connector?: SentinelConnectorParts };
    connector?.failoverDetector?.cleanup();
  }
}

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
 *
 * With `sentinel`, the server comes from the Sentinels rather than the URL's
 * host (the URL still gives the password, database and TLS), and the
 * connection follows a failover: it is dropped when a Sentinel announces a
 * new primary, and on every reconnection the Sentinels are asked again.
 */
export function createRedisConnection(
  url: string,
  role: 'producer' | 'consumer',
  {
    commandTimeoutMs = DEFAULT_REDIS_REQUEST_TIMEOUT_MS,
    sentinel,
  }: { commandTimeoutMs?: number; sentinel?: RedisSentinelConfig } = {},
): Redis {
  const producer = role === 'producer';
  return new SentinelFollowingRedis(url, {
    maxRetriesPerRequest: producer ? 1 : null,
    enableOfflineQueue: !producer,
    ...(producer ? { commandTimeout: commandTimeoutMs } : {}),
    connectTimeout: 5000,
    retryStrategy,
    ...(sentinel ? sentinelOptions(sentinel, url.startsWith('rediss:')) : {}),
  });
}

function retryStrategy(attempt: number): number {
  return Math.min(attempt * 200, 5000);
}

function sentinelOptions(sentinel: RedisSentinelConfig, tls: boolean): RedisOptions {
  return {
    sentinels: sentinel.sentinels,
    name: sentinel.name,
    sentinelPassword: sentinel.password,
    // A Sentinel that accepts the connection and never answers (a frozen
    // host, a cut link) must not hold the search for the primary.
    sentinelCommandTimeout: 2000,
    sentinelRetryStrategy: retryStrategy,
    // Subscribes to +switch-master: a primary that was cut off rather than
    // killed keeps its sockets open, and writes to it would be lost.
    failoverDetector: true,
    // ioredis uses TLS to a primary found through Sentinels only when told to.
    ...(tls ? { enableTLSForSentinelMode: true } : {}),
  };
}

/**
 * What a connection error means, for the logs. When no Sentinel answers,
 * ioredis says "All sentinels are unreachable" (even when they answered but
 * know no primary by that name) without naming any: this says which were
 * asked, for which primary, and why each failed.
 */
export function describeRedisError(
  error: Error,
  sentinel: RedisSentinelConfig | undefined,
  sentinelFailures: ReadonlyMap<string, string> = new Map(),
): string {
  if (!sentinel || !error.message.startsWith('All sentinels are unreachable')) {
    return error.message;
  }
  const reasons = sentinel.sentinels.map(({ host, port }) => {
    const address = host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
    return `${address} ${sentinelFailures.get(`${host}:${port}`) ?? 'did not answer'}`;
  });
  const retry = /Retrying from scratch after (\d+)ms/.exec(error.message);
  return (
    `no Redis Sentinel of REDIS_SENTINELS told where the primary "${sentinel.name}" ` +
    `(REDIS_SENTINEL_NAME) is: ${reasons.join('; ')}` +
    (retry ? `; asking again in ${retry[1]} ms` : '')
  );
}

const SENTINEL_FAILURE =
  /^(?:failed to connect to sentinel (\S+) because (.*)|connected to sentinel (\S+) successfully, but got an invalid reply: .*)$/s;

/** Why one Sentinel gave no primary, from what ioredis reports of it. */
function sentinelFailureOf(message: string): [address: string, reason: string] | undefined {
  const match = SENTINEL_FAILURE.exec(message);
  if (!match) return undefined;
  const [, address, cause = '', silentAddress] = match;
  // Older Sentinels answer nil for an unknown name, Redis 7 an error.
  if (silentAddress || /No such master/i.test(cause)) {
    return [silentAddress ?? address ?? '', 'answered, but knows no primary by that name'];
  }
  // ioredis's sentinel client gives up on a refused connection with this.
  if (cause === 'Connection is closed.') return [address ?? '', 'could not be reached'];
  if (/timed out/i.test(cause)) return [address ?? '', 'did not answer in time'];
  return [address ?? '', `refused the request (${cause})`];
}

/**
 * Calls `listener` with a readable message for every error of the
 * connection; with Sentinels, an error saying that none of them answered
 * names each and why (see describeRedisError).
 */
export function onRedisError(
  redis: Redis,
  sentinel: RedisSentinelConfig | undefined,
  listener: (message: string) => void,
): void {
  const failures = new Map<string, string>();
  redis.on('sentinelError', (error: Error) => {
    const failure = sentinelFailureOf(error.message);
    if (failure) failures.set(...failure);
  });
  redis.on('error', (error: Error) => {
    listener(describeRedisError(error, sentinel, failures));
    failures.clear();
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
