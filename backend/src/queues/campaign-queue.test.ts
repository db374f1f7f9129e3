import { QUEUE_NAMES } from '@agency/contracts';
import { uniqueName } from '@agency/platform/testing/file-database';
import {
  createCampaignQueue,
  enqueueCampaignDispatch,
  enqueueRoundDispatch,
  enqueueTestSend,
  type CampaignQueue,
} from './campaign-queue';
import { MAIL_JOB_OPTIONS, type Redis } from '@agency/platform';
import { connectSharedRedis } from '@agency/platform/testing/shared-redis';

/** What the API's send controls put on the real campaign queues, and what a repeat adds. */
describe('the campaign queues', () => {
  let redis: Redis;
  let queue: CampaignQueue;

  beforeAll(async () => {
    redis = await connectSharedRedis('producer');
  });
  // Made in each test, not once per file: StrykerJS counts code run in
  // beforeAll as covered by no test (README, "Mutation testing").
  beforeEach(() => {
    queue = createCampaignQueue(redis, uniqueName('campaign-queue'));
  });
  afterEach(async () => {
    await Promise.all([
      queue.dispatch.obliterate({ force: true }),
      queue.testSend.obliterate({ force: true }),
    ]);
    await queue.close();
  });
  afterAll(() => {
    redis.disconnect();
  });

  it("keeps Redis's errors out of the console: the send route reports them", () => {
    const printed = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      for (const each of [queue.dispatch, queue.testSend]) {
        each.emit('error', new Error('connect ECONNREFUSED 127.0.0.1:6379'));
      }
      expect(printed).not.toHaveBeenCalled();
    } finally {
      printed.mockRestore();
    }
  });

  it('adds one dispatch per campaign, however often the send is requested', async () => {
    await enqueueCampaignDispatch(queue, 'c-1');
    await enqueueCampaignDispatch(queue, 'c-1');

    const job = await queue.dispatch.getJob('campaign-dispatch-c-1');
    expect(job?.name).toBe(QUEUE_NAMES.campaignDispatch);
    expect(job?.data).toEqual({ campaignId: 'c-1' });
    // Retried like every mail job while the store or SMTP is down.
    expect(job?.opts.attempts).toBe(MAIL_JOB_OPTIONS.attempts);
    expect(job?.opts.backoff).toEqual(MAIL_JOB_OPTIONS.backoff);
    expect(await queue.dispatch.getJobCountByTypes('waiting')).toBe(1);
  });

  it('gives a resumed pass and a resend round dispatches of their own', async () => {
    await enqueueRoundDispatch(queue, 'c-2', 1, 2);
    await enqueueRoundDispatch(queue, 'c-2', 2, 1);
    await enqueueRoundDispatch(queue, 'c-2', 2, 1);

    const ids = (await queue.dispatch.getJobs(['waiting'])).map((job) => job.id);
    expect(ids).toEqual(
      expect.arrayContaining(['campaign-dispatch-c-2-r1-p2', 'campaign-dispatch-c-2-r2-p1']),
    );
    expect(ids.filter((id) => id?.startsWith('campaign-dispatch-c-2'))).toHaveLength(2);
    const resend = await queue.dispatch.getJob('campaign-dispatch-c-2-r2-p1');
    expect(resend?.name).toBe(QUEUE_NAMES.campaignDispatch);
    expect(resend?.data).toEqual({ campaignId: 'c-2' });
  });

  it('adds every test send as a mail of its own, retried a little only', async () => {
    const test = { campaignId: 'c-3', email: 'boss@agency.test' };
    await enqueueTestSend(queue, test);
    await enqueueTestSend(queue, test);

    const jobs = await queue.testSend.getJobs(['waiting']);
    expect(jobs).toHaveLength(2);
    for (const job of jobs) {
      expect(job.name).toBe(QUEUE_NAMES.campaignTestSend);
      expect(job.id).toMatch(/^campaign-test-c-3-[0-9a-f-]{36}$/);
      expect(job.data).toEqual(test);
      expect(job.opts.attempts).toBe(3);
      expect(job.opts.backoff).toEqual(MAIL_JOB_OPTIONS.backoff);
    }
  });
});
