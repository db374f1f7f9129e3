import { Worker, type Job } from 'bullmq';
import { QUEUE_NAMES, campaignRoundDispatchJobId, type CampaignStatus } from '@agency/contracts';
import { CampaignModel, createLogger } from '@agency/backend/store';
import { createCampaignContext, type CampaignContext } from '../testing/campaign-context';
import { campaignRecoveryProcessor } from './campaign-recovery.processor';

const MINUTE = 60_000;

/**
 * The recovery pass on its own, against MongoDB and the real dispatch queue:
 * which campaigns it finds stuck, the job it adds for each, and the given-up
 * dispatch it retries. The controls test runs it inside a worker.
 */
describe('the campaign recovery pass', () => {
  let ctx: CampaignContext;
  let recover: () => Promise<number>;

  beforeAll(async () => {
    ctx = await createCampaignContext();
    recover = campaignRecoveryProcessor({
      dispatchQueue: ctx.dispatchQueue,
      queuedAgeMs: 10 * MINUTE,
      logger: createLogger('test', 'silent'),
    });
  });
  afterAll(async () => {
    await ctx.close();
  });
  beforeEach(async () => {
    await ctx.dispatchQueue.obliterate({ force: true });
    await CampaignModel.deleteMany({});
  });

  /** A campaign as the send route leaves it, `ageMs` ago, with no dispatch job added. */
  async function campaignQueued(
    ageMs: number,
    fields: { status?: CampaignStatus; round?: number; pass?: number } = {},
  ): Promise<string> {
    const campaign = await CampaignModel.create({
      name: 'Spring offer',
      subject: 'Hello',
      content: '<p>Our spring packages are here.</p>',
      status: fields.status ?? 'queued',
      queuedAt: new Date(Date.now() - ageMs),
      round: fields.round ?? 1,
      pass: fields.pass ?? 1,
    });
    return String(campaign._id);
  }

  const dispatchJobs = () => ctx.dispatchQueue.getJobs(['waiting', 'failed', 'completed']);

  it('adds the dispatch of a campaign queued too long ago, under the id the API would have used', async () => {
    const id = await campaignQueued(11 * MINUTE, { round: 2, pass: 3 });

    expect(await recover()).toBe(1);

    const jobs = await dispatchJobs();
    expect(jobs.map((job) => [job.id, job.name, job.data])).toEqual([
      [campaignRoundDispatchJobId(id, 2, 3), QUEUE_NAMES.campaignDispatch, { campaignId: id }],
    ]);
  });

  it('leaves alone a campaign queued recently, and campaigns no longer queued', async () => {
    await campaignQueued(MINUTE);
    await campaignQueued(60 * MINUTE, { status: 'sending' });
    await campaignQueued(60 * MINUTE, { status: 'draft' });

    expect(await recover()).toBe(0);
    expect(await dispatchJobs()).toEqual([]);
  });

  it('adds each stuck campaign once, even when its dispatch is already waiting', async () => {
    const first = await campaignQueued(20 * MINUTE);
    const second = await campaignQueued(30 * MINUTE);
    await ctx.dispatchQueue.add(
      QUEUE_NAMES.campaignDispatch,
      { campaignId: first },
      { jobId: campaignRoundDispatchJobId(first, 1, 1) },
    );

    expect(await recover()).toBe(2);

    const ids = (await dispatchJobs()).map((job) => job.id).sort();
    expect(ids).toEqual(
      [campaignRoundDispatchJobId(first, 1, 1), campaignRoundDispatchJobId(second, 1, 1)].sort(),
    );
  });

  it('retries a dispatch that gave up, since adding its id again would be ignored', async () => {
    const id = await campaignQueued(20 * MINUTE);
    const jobId = campaignRoundDispatchJobId(id, 1, 1);
    await ctx.dispatchQueue.add(QUEUE_NAMES.campaignDispatch, { campaignId: id }, { jobId });
    await failNextDispatch();
    expect(await (await ctx.dispatchQueue.getJob(jobId))?.getState()).toBe('failed');

    expect(await recover()).toBe(1);

    expect(await (await ctx.dispatchQueue.getJob(jobId))?.getState()).toBe('waiting');
  });

  it('leaves a dispatch that is merely waiting where it is', async () => {
    const id = await campaignQueued(20 * MINUTE);
    const jobId = campaignRoundDispatchJobId(id, 1, 1);
    const job = await ctx.dispatchQueue.add(
      QUEUE_NAMES.campaignDispatch,
      { campaignId: id },
      { jobId, delay: 60 * MINUTE },
    );

    await recover();

    expect(await job.getState()).toBe('delayed');
  });

  /** Runs the next dispatch job through a worker that fails it for good, as spent retries leave it. */
  async function failNextDispatch(): Promise<void> {
    const connection = ctx.redis.duplicate();
    const worker = new Worker(
      QUEUE_NAMES.campaignDispatch,
      () => Promise.reject(new Error('store down')),
      { connection, prefix: ctx.queuePrefix, autorun: false },
    );
    const failed = new Promise<Job | undefined>((resolve) => worker.once('failed', resolve));
    worker.run().catch(() => undefined);
    await failed;
    await worker.close();
    connection.disconnect();
  }
});
