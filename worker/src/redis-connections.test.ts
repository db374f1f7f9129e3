import { createRedisConnection, isRedisUp, waitUntilConnected, type Redis } from '@agency/platform';
import { startOwnRedis, type OwnRedis } from '@agency/platform/testing/own-redis';

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
