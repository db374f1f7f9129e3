import { uniqueName } from '../testing/file-database';
import { createMailQueues, type MailQueues } from '..';
import type { Redis } from '..';
import { connectSharedRedis } from '../testing/shared-redis';

describe('the mail queues', () => {
  let redis: Redis;
  let queues: MailQueues;

  beforeAll(async () => {
    redis = await connectSharedRedis('producer');
  });
  // Made in each test, not once per file: StrykerJS counts code run in
  // beforeAll as covered by no test (README, "Mutation testing").
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
      expect(queues.all()).toHaveLength(3);
      for (const queue of queues.all()) {
        queue.emit('error', new Error('connect ECONNREFUSED 127.0.0.1:6379'));
      }
      expect(printed).not.toHaveBeenCalled();
    } finally {
      printed.mockRestore();
    }
  });
});
