import type { Job } from 'bullmq';
import {
  QUEUE_NAMES,
  campaignDispatchJobId,
  campaignScheduleJobId,
  type CampaignScheduleJob,
} from '@agency/contracts';
import { MAIL_JOB_OPTIONS, createLogger, mongoCampaignStore as store } from '@agency/platform';
import { CampaignModel } from '@agency/platform/testing/campaigns-models';
import { createCampaignContext, type CampaignContext } from '../testing/campaign-context';
import { campaignScheduleProcessor } from './campaign-schedule.processor';
import { RoundTracker } from './round-tracker';

/**
 * The delayed job of a scheduled campaign on its own, called as BullMQ calls
 * it, against the store and the real dispatch queue: the campaign it starts,
 * the dispatch it adds, and the campaigns it leaves alone.
 */
describe('the start of a scheduled campaign', () => {
  let ctx: CampaignContext;
  let start: (job: Job<CampaignScheduleJob>) => Promise<'started' | 'skipped'>;

  beforeAll(async () => {
    ctx = await createCampaignContext();
  });
  afterAll(async () => {
    await ctx.controlQueue.schedule.obliterate({ force: true });
    await ctx.close();
  });
  beforeEach(async () => {
    await ctx.dispatchQueue.obliterate({ force: true });
    start = campaignScheduleProcessor({
      store,
      tracker: new RoundTracker(ctx.redis, ctx.queuePrefix),
      dispatchQueue: ctx.dispatchQueue,
      logger: createLogger('test', 'silent'),
    });
  });

  const SCHEDULED_AT = new Date('2026-12-01T08:00:00Z');

  async function scheduledCampaign(scheduledAt = SCHEDULED_AT): Promise<string> {
    const id = await ctx.queueCampaign({ addDispatch: false });
    await CampaignModel.updateOne(
      { _id: id },
      { status: 'scheduled', scheduledAt, queuedAt: null },
    );
    return id;
  }

  /** The job as the API adds it, delayed until the campaign's time (here: due now). */
  const scheduleJob = (campaignId: string, scheduledAt = SCHEDULED_AT) =>
    ctx.controlQueue.schedule.add(
      QUEUE_NAMES.campaignSchedule,
      { campaignId, scheduledAt: scheduledAt.toISOString() },
      { jobId: campaignScheduleJobId(campaignId, scheduledAt) },
    );

  const dispatchJobs = () => ctx.dispatchQueue.getJobs(['waiting', 'delayed']);

  it('queues the campaign and adds its dispatch, as a send would', async () => {
    const id = await scheduledCampaign();
    const before = Date.now();

    expect(await start(await scheduleJob(id))).toBe('started');

    const campaign = await ctx.campaign(id);
    expect(campaign).toMatchObject({ status: 'queued' });
    expect((campaign.queuedAt as Date).getTime()).toBeGreaterThanOrEqual(before - 1000);
    const jobs = await dispatchJobs();
    expect(jobs.map((job) => [job.id, job.name, job.data])).toEqual([
      [campaignDispatchJobId(id), QUEUE_NAMES.campaignDispatch, { campaignId: id }],
    ]);
    expect(jobs[0]?.opts).toMatchObject({
      attempts: MAIL_JOB_OPTIONS.attempts,
      backoff: MAIL_JOB_OPTIONS.backoff,
    });
  });

  it('starts it once, however often its job runs', async () => {
    const id = await scheduledCampaign();

    expect(await start(await scheduleJob(id))).toBe('started');
    expect(await start(await scheduleJob(id))).toBe('skipped');

    expect(await dispatchJobs()).toHaveLength(1);
  });

  it('leaves a campaign scheduled again for another time to that time’s job', async () => {
    const id = await scheduledCampaign(new Date('2026-12-02T08:00:00Z'));

    expect(await start(await scheduleJob(id))).toBe('skipped');

    expect(await ctx.campaign(id)).toMatchObject({ status: 'scheduled', queuedAt: null });
    expect(await dispatchJobs()).toEqual([]);
  });

  it('leaves a campaign taken back to a draft', async () => {
    const id = await scheduledCampaign();
    await CampaignModel.updateOne({ _id: id }, { status: 'draft' });

    expect(await start(await scheduleJob(id))).toBe('skipped');

    expect(await ctx.campaign(id)).toMatchObject({ status: 'draft' });
    expect(await dispatchJobs()).toEqual([]);
  });
});
