import {
  createRedisConnection,
  isRedisUp,
  onRedisError,
  waitUntilConnected,
  type Redis,
  type RedisSentinelConfig,
} from '@agency/platform';
import {
  freePort,
  startOwnRedis,
  startOwnSentinel,
  type OwnRedis,
} from '@agency/platform/testing/own-redis';

/**
 * The two kinds of Redis connection of the store entry, against a Redis of
 * the test's own that is stopped or frozen (SIGSTOP: the socket stays open
 * and nothing answers, like a hung server or a network partition).
 */
describe('Redis connections', () => {
  let redis: OwnRedis;
  const opened: Redis[] = [];

  function connect(role: 'producer' | 'consumer', commandTimeoutMs?: number): Redis {
    const connection = createRedisConnection(redis.url, role, { commandTimeoutMs });
    connection.on('error', () => undefined);
    opened.push(connection);
    return connection;
  }

  beforeEach(async () => {
    redis = await startOwnRedis();
  });
  afterEach(async () => {
    for (const connection of opened.splice(0)) connection.disconnect();
    await redis.close();
  });

  describe("the API's (producer)", () => {
    it('gives up on a frozen Redis after its command timeout', async () => {
      const producer = connect('producer', 200);
      expect(await waitUntilConnected(producer, 5000)).toBe(true);
      redis.freeze();

      const started = performance.now();
      await expect(producer.incr('hits')).rejects.toThrow('Command timed out');
      // Well under the 3 s a visitor may wait, however loaded the machine.
      expect(performance.now() - started).toBeLessThan(2000);
      expect(await isRedisUp(producer, 300)).toBe(false);

      redis.thaw();
      expect(await isRedisUp(producer, 5000)).toBe(true);
    });

    it('refuses at once while Redis is down instead of queueing the command', async () => {
      const producer = connect('producer');
      await waitUntilConnected(producer, 5000);
      await redis.stop();
      await new Promise((resolve) => producer.once('close', resolve));

      await expect(producer.incr('hits')).rejects.toThrow(/enableOfflineQueue/);
      expect(await isRedisUp(producer)).toBe(false);
    });
  });

  describe("the worker's (consumer)", () => {
    it('waits for Redis to come back instead of failing', async () => {
      const consumer = connect('consumer');
      await waitUntilConnected(consumer, 5000);
      await redis.stop();
      await new Promise((resolve) => consumer.once('close', resolve));

      const written = consumer.set('key', 'kept');
      await redis.start();

      expect(await written).toBe('OK');
      expect(await consumer.get('key')).toBe('kept');
    });

    it('never times a command out while Redis is frozen', async () => {
      const consumer = connect('consumer');
      const producer = connect('producer', 200);
      await waitUntilConnected(consumer, 5000);
      await waitUntilConnected(producer, 5000);
      redis.freeze();

      const reply = consumer.ping();
      // The API's connection has given up by now; the worker's blocking reads must not.
      await expect(producer.ping()).rejects.toThrow('Command timed out');
      redis.thaw();

      expect(await reply).toBe('PONG');
    });
  });

  describe('waitUntilConnected', () => {
    it('says yes at once for a connection that is ready, or as soon as it is', async () => {
      const connection = connect('producer');
      expect(await waitUntilConnected(connection, 5000)).toBe(true);
      expect(await waitUntilConnected(connection, 0)).toBe(true);
    });

    it('says no once the wait is over when Redis never answers', async () => {
      await redis.stop();
      const connection = connect('producer');

      expect(await waitUntilConnected(connection, 300)).toBe(false);
      expect(connection.listenerCount('ready')).toBe(0);
    });
  });
});

/**
 * REDIS_SENTINELS: the connection asks real Sentinels (redis-server
 * --sentinel) where the primary is, and follows it when they promote the
 * replica.
 */
/**
 * Has the Sentinel behind `asker` fail `name` over, asking again while it
 * knows no replica it would promote (it learns of them from INFO every few
 * seconds).
 */
async function sentinelFailover(asker: Redis, name: string): Promise<unknown> {
  return asker.call('SENTINEL', 'FAILOVER', name).catch(async (error: Error) => {
    if (!error.message.startsWith('NOGOODSLAVE')) throw error;
    await new Promise((resolve) => setTimeout(resolve, 200));
    return sentinelFailover(asker, name);
  });
}

describe('Redis connections through Sentinels', () => {
  const name = 'agency-primary';
  const opened: Redis[] = [];
  const closers: (() => Promise<void>)[] = [];

  function connect(
    role: 'producer' | 'consumer',
    sentinel: RedisSentinelConfig,
    onError: (message: string) => void = () => undefined,
  ): Redis {
    // The URL's host is a closed port: only the Sentinels can lead to Redis.
    const connection = createRedisConnection('redis://127.0.0.1:1', role, { sentinel });
    onRedisError(connection, sentinel, onError);
    opened.push(connection);
    return connection;
  }

  async function primaryWithReplica() {
    const primary = await startOwnRedis();
    const replica = await startOwnRedis({ replicaOf: primary.port });
    const sentinel = await startOwnSentinel(primary.port, name);
    closers.push(sentinel.close, replica.close, primary.close);
    return { primary, replica, sentinel };
  }

  afterEach(async () => {
    for (const connection of opened.splice(0)) connection.disconnect();
    for (const close of closers.splice(0)) await close();
  });

  it('reaches the primary the Sentinels name, and follows it through a failover', async () => {
    const { primary, replica, sentinel } = await primaryWithReplica();
    const config = { sentinels: [{ host: '127.0.0.1', port: sentinel.port }], name };
    const consumer = connect('consumer', config);
    const producer = connect('producer', config);
    await consumer.set('written-before', 'kept');
    expect(consumer.stream.remotePort).toBe(primary.port);
    // Once the replica holds the write, promoting it loses nothing.
    expect(await consumer.wait(1, 10_000)).toBe(1);
    // Sentinel learns of the replica, then of its link, from INFO every few
    // seconds: until then it has no replica it would promote.
    const asker = createRedisConnection(`redis://127.0.0.1:${sentinel.port}`, 'consumer');
    opened.push(asker);
    await sentinelFailover(asker, name);

    // The old primary is demoted, not killed: its sockets stay open. The
    // Sentinels' announcement (+switch-master) moves the connections within
    // about a second; without listening to it they stay until the Sentinel
    // closes the demoted server's clients, 15 s or more later.
    for (const connection of [consumer, producer]) {
      const deadline = Date.now() + 10_000;
      while (connection.stream.remotePort !== replica.port || connection.status !== 'ready') {
        if (Date.now() > deadline) throw new Error('the connection stayed with the old primary');
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    expect(await consumer.get('written-before')).toBe('kept');
    await expect(consumer.set('written-after', 'on the new primary')).resolves.toBe('OK');
    await expect(producer.incr('hits')).resolves.toBe(1);
  }, 40_000);

  /** Until `check` holds, or fails the test after `ms`. */
  async function until(what: string, check: () => boolean | Promise<boolean>, ms = 20_000) {
    const deadline = Date.now() + ms;
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error(`${what}: not within ${ms} ms`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  it('keeps its commands when the new primary is announced while it asks the Sentinels', async () => {
    const { primary, replica, sentinel: announcer } = await primaryWithReplica();
    // Asked first and frozen while the connection searches: each holds the
    // search for the Sentinel command timeout (2 s), so the announcement
    // comes in the middle of it, as it does when a dead primary is replaced.
    const frozen = [
      await startOwnSentinel(primary.port, name),
      await startOwnSentinel(primary.port, name),
    ];
    closers.push(...frozen.map((sentinel) => sentinel.close));
    const config = {
      sentinels: [...frozen, announcer].map(({ port }) => ({ host: '127.0.0.1', port })),
      name,
    };
    const consumer = connect('consumer', config);
    await consumer.set('written-before', 'kept');
    expect(await consumer.wait(1, 10_000)).toBe(1);
    const asker = createRedisConnection(`redis://127.0.0.1:${announcer.port}`, 'consumer');
    opened.push(asker);
    await until('the Sentinel knows the replica', async () => {
      const replicas = (await asker.call('SENTINEL', 'REPLICAS', name)) as string[][];
      return replicas.some((fields) => fields.join(' ').includes('master-link-status ok'));
    });
    // The connection listens for announcements on every Sentinel.
    await until('the connection listens to the Sentinel', async () =>
      ((await asker.call('CLIENT', 'LIST')) as string).includes('sub=1'),
    );

    // The connection loses its primary, and searches again.
    for (const sentinel of frozen) sentinel.freeze();
    const admin = createRedisConnection(primary.url, 'consumer');
    opened.push(admin);
    await admin.call('CLIENT', 'KILL', 'TYPE', 'normal');
    await until('the connection searches', () => consumer.status === 'connecting');
    // Queued while it searches, as a worker's commands are: kept for the new primary.
    const queued = consumer.set('written-meanwhile', 'kept');
    await sentinelFailover(asker, name);

    await until(
      'the connection reaches the new primary',
      () => consumer.status === 'ready' && consumer.stream.remotePort === replica.port,
    );
    await expect(queued).resolves.toBe('OK');
    expect(await consumer.mget('written-before', 'written-meanwhile')).toEqual(['kept', 'kept']);
    await expect(consumer.set('written-after', 'on the new primary')).resolves.toBe('OK');
  }, 60_000);

  it('says which Sentinels it asked and why each failed when none can be reached', async () => {
    const [first, second] = [await freePort(), await freePort()];
    const config = {
      sentinels: [
        { host: '127.0.0.1', port: first },
        { host: '127.0.0.1', port: second },
      ],
      name,
    };
    const message = await new Promise<string>((resolve) => connect('consumer', config, resolve));

    expect(message).toContain(
      `no Redis Sentinel of REDIS_SENTINELS told where the primary "${name}"`,
    );
    expect(message).toContain(`127.0.0.1:${first} could not be reached; 127.0.0.1:${second} could`);
    expect(message).toMatch(/asking again in \d+ ms$/);
  });

  it('says so when a Sentinel answers but watches no primary by that name', async () => {
    const { sentinel } = await primaryWithReplica();
    const config = { sentinels: [{ host: '127.0.0.1', port: sentinel.port }], name: 'elsewhere' };
    const messages: string[] = [];
    const producer = connect('producer', config, (message) => messages.push(message));
    while (messages.length === 0) await new Promise((resolve) => setTimeout(resolve, 50));

    expect(messages[0]).toContain('primary "elsewhere" (REDIS_SENTINEL_NAME)');
    expect(messages[0]).toContain(
      `127.0.0.1:${sentinel.port} answered, but knows no primary by that name`,
    );
    expect(await isRedisUp(producer, 200)).toBe(false);
  });
});
