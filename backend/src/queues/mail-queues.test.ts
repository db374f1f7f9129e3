import { uniqueName } from '../testing/test-context';
import { createMailQueues, type MailQueues } from './mail-queues';
import { createRedisConnection, waitUntilConnected, type Redis } from './redis-connection';

describe('the mail queues', () => {
  let redis: Redis;
  let queues: MailQueues;

  beforeAll(async () => {
    const url = process.env.REDIS_URL;
    if (!url) throw new Error('REDIS_URL must be set for tests');
    redis = createRedisConnection(url, 'producer');
    await waitUntilConnected(redis, 5000);
  });
  // Made in each test: mutation testing counts only what a test itself runs.
  beforeEach(() => {
    queues = createMailQueues(redis, uniqueName('mail-queues'));
  });
  afterEach(async () => {
    await queues.close();
  });
  afterAll(() => {
    redis.disconnect();
  });

  it("keeps Redis's errors out of the console: the health check and the relay handle them", () => {
    const printed = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      expect(queues.all()).toHaveLength(2);
      for (const queue of queues.all()) {
        queue.emit('error', new Error('connect ECONNREFUSED 127.0.0.1:6379'));
      }
      expect(printed).not.toHaveBeenCalled();
    } finally {
      printed.mockRestore();
    }
  });
});
