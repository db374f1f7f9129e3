import { Queue, Worker, type Job } from 'bullmq';
import { Types } from 'mongoose';
import {
  QUEUE_NAMES,
  campaignDispatchJobId,
  campaignRoundDispatchJobId,
  campaignSendJobId,
  wallTimeOf,
  type CampaignSendJob,
  type CampaignStatus,
  type Weekday,
} from '@agency/contracts';
import { createLogger, mongoCampaignStore as store } from '@agency/platform';
import { CampaignBatchModel, CampaignModel } from '@agency/platform/testing/campaigns-models';
import { createCampaignContext, type CampaignContext } from '../testing/campaign-context';
import { campaignRecoveryProcessor, type RecoveryPass } from './campaign-recovery.processor';
import { counterFolds } from './counter-folds';
import { RoundTracker } from './round-tracker';

const MINUTE = 60_000;

/**
 * The recovery pass on its own, against the store, the real queues and
 * Redis: which campaigns it finds stuck or stalled, the dispatch it adds, the
 * given-up job it retries, and how it rebuilds a sending campaign whose jobs
 * and counters Redis lost, from the ledger. The controls and crash tests run
 * it inside a worker.
 */
describe('the campaign recovery pass', () => {
  let ctx: CampaignContext;
  let sendQueue: Queue<CampaignSendJob>;
  let tracker: RoundTracker;
  let recover: () => Promise<RecoveryPass>;
  const logger = createLogger('test', 'silent');

  beforeAll(async () => {
    ctx = await createCampaignContext();
    sendQueue = new Queue(QUEUE_NAMES.campaignSend, {
      connection: ctx.redis,
      prefix: ctx.queuePrefix,
    });
    tracker = new RoundTracker(ctx.redis, ctx.queuePrefix);
    recover = campaignRecoveryProcessor({
      store,
      tracker,
      folds: counterFolds(async () => true, 0, logger),
      logger,
      sendQueue,
      sendJobOptions: { attempts: 3 },
      dispatchQueue: ctx.dispatchQueue,
      stalledAfterMs: 10 * MINUTE,
      timeZone: () => Promise.resolve('Africa/Tunis'),
    });
  });
  afterAll(async () => {
    await sendQueue.close();
    await ctx.close();
  });
  beforeEach(async () => {
    await ctx.dispatchQueue.obliterate({ force: true });
    await sendQueue.obliterate({ force: true });
    await CampaignModel.deleteMany({});
    await CampaignBatchModel.deleteMany({});
  });

  /** A campaign whose last change was `ageMs` ago, with no job in Redis. */
  async function campaignLeft(
    ageMs: number,
    fields: {
      status?: CampaignStatus;
      round?: number;
      pass?: number;
      dispatchedRound?: number;
      countersVersion?: number;
      scheduledAt?: Date;
      sendingWindow?: { days: Weekday[]; start: string; end: string };
    } = {},
  ): Promise<string> {
    const at = new Date(Date.now() - ageMs);
    const campaign = await CampaignModel.create({
      name: 'Spring offer',
      subject: 'Hello',
      content: '<p>Our spring packages are here.</p>',
      status: fields.status ?? 'queued',
      queuedAt: at,
      round: fields.round ?? 1,
      pass: fields.pass ?? 1,
      dispatchedRound: fields.dispatchedRound ?? 0,
      countersVersion: fields.countersVersion ?? 0,
      scheduledAt: fields.scheduledAt ?? null,
      sendingWindow: fields.sendingWindow ?? null,
    });
    await CampaignModel.collection.updateOne({ _id: campaign._id }, { $set: { updatedAt: at } });
    return String(campaign._id);
  }

  const dispatchJobs = () => ctx.dispatchQueue.getJobs(['waiting', 'failed', 'completed']);

  describe('a campaign left queued', () => {
    it('gets its dispatch, under the id the API would have used', async () => {
      const id = await campaignLeft(11 * MINUTE, { round: 2, pass: 3 });

      expect(await recover()).toMatchObject({ dispatches: 1 });

      const jobs = await dispatchJobs();
      expect(jobs.map((job) => [job.id, job.name, job.data])).toEqual([
        [campaignRoundDispatchJobId(id, 2, 3), QUEUE_NAMES.campaignDispatch, { campaignId: id }],
      ]);
    });

    it('is left alone when queued recently, as are campaigns not sending', async () => {
      await campaignLeft(MINUTE);
      await campaignLeft(60 * MINUTE, { status: 'draft' });
      await campaignLeft(60 * MINUTE, { status: 'paused' });

      expect(await recover()).toEqual({
        schedulesStarted: 0,
        dispatches: 0,
        requeuedBatches: 0,
        finished: 0,
      });
      expect(await dispatchJobs()).toEqual([]);
    });

    it('gets each dispatch once, even when it is already waiting', async () => {
      const first = await campaignLeft(20 * MINUTE);
      const second = await campaignLeft(30 * MINUTE);
      await ctx.dispatchQueue.add(
        QUEUE_NAMES.campaignDispatch,
        { campaignId: first },
        { jobId: campaignRoundDispatchJobId(first, 1, 1) },
      );

      expect(await recover()).toMatchObject({ dispatches: 2 });

      const ids = (await dispatchJobs()).map((job) => job.id).sort();
      expect(ids).toEqual(
        [campaignRoundDispatchJobId(first, 1, 1), campaignRoundDispatchJobId(second, 1, 1)].sort(),
      );
    });

    it('has a dispatch that gave up retried, since adding its id again would be ignored', async () => {
      const id = await campaignLeft(20 * MINUTE);
      const jobId = campaignRoundDispatchJobId(id, 1, 1);
      await ctx.dispatchQueue.add(QUEUE_NAMES.campaignDispatch, { campaignId: id }, { jobId });
      await failNext(QUEUE_NAMES.campaignDispatch);
      expect(await (await ctx.dispatchQueue.getJob(jobId))?.getState()).toBe('failed');

      await recover();

      expect(await (await ctx.dispatchQueue.getJob(jobId))?.getState()).toBe('waiting');
    });

    it('leaves a dispatch that is merely waiting where it is', async () => {
      const id = await campaignLeft(20 * MINUTE);
      const job = await ctx.dispatchQueue.add(
        QUEUE_NAMES.campaignDispatch,
        { campaignId: id },
        { jobId: campaignRoundDispatchJobId(id, 1, 1), delay: 60 * MINUTE },
      );

      await recover();

      expect(await job.getState()).toBe('delayed');
    });
  });

  describe('a scheduled campaign', () => {
    it('is started once its time has passed, though its delayed job was lost', async () => {
      const due = await campaignLeft(MINUTE, {
        status: 'scheduled',
        scheduledAt: new Date(Date.now() - MINUTE),
      });
      const later = await campaignLeft(MINUTE, {
        status: 'scheduled',
        scheduledAt: new Date(Date.now() + 60 * MINUTE),
      });

      expect(await recover()).toEqual({
        schedulesStarted: 1,
        dispatches: 0,
        requeuedBatches: 0,
        finished: 0,
      });

      expect(await ctx.campaign(due)).toMatchObject({ status: 'queued' });
      expect(await ctx.campaign(later)).toMatchObject({ status: 'scheduled' });
      expect((await dispatchJobs()).map((job) => [job.id, job.data])).toEqual([
        [campaignDispatchJobId(due), { campaignId: due }],
      ]);
      // Started, it is no longer due: the next pass starts nothing.
      expect(await recover()).toMatchObject({ schedulesStarted: 0, dispatches: 0 });
    });
  });

  describe('a campaign sending without a change for a while', () => {
    const recipient = (name: string) => ({
      key: `${name}@example.tn`,
      email: `${name}@example.tn`,
      firstName: name,
      lastName: '',
      locale: 'en',
    });

    /** A round in the ledger: batch 0 sent whole, batch 1 half answered, batch 2 untouched. */
    async function ledgerOfThreeBatches(id: string) {
      await store.addBatches(id, 1, [
        { seq: 0, recipients: [recipient('a'), recipient('b')] },
        { seq: 1, recipients: [recipient('c'), recipient('d')] },
        { seq: 2, recipients: [recipient('e')] },
      ]);
      const sent = { state: 'sent', attempts: 1 } as const;
      await store.recordOutcomes(id, 1, 0, [
        { position: 0, email: 'a@example.tn', outcome: sent },
        { position: 1, email: 'b@example.tn', outcome: sent },
      ]);
      await store.recordOutcomes(id, 1, 1, [
        {
          position: 1,
          email: 'd@example.tn',
          outcome: { state: 'failed', reason: '550 no', attempts: 1 },
        },
      ]);
    }

    it('gets its dispatch again while its audience is not all in the ledger', async () => {
      const id = await campaignLeft(20 * MINUTE, { status: 'sending', pass: 2 });

      expect(await recover()).toMatchObject({ dispatches: 1 });

      expect((await dispatchJobs()).map((job) => job.id)).toEqual([
        campaignRoundDispatchJobId(id, 1, 2),
      ]);
    });

    it('has the batches Redis lost queued again from the ledger, and its counters rebuilt', async () => {
      const id = await campaignLeft(20 * MINUTE, {
        status: 'sending',
        dispatchedRound: 1,
        countersVersion: 40,
      });
      await ledgerOfThreeBatches(id);

      expect(await recover()).toMatchObject({ requeuedBatches: 2, finished: 0 });

      const jobs = await sendQueue.getJobs(['waiting']);
      expect(
        jobs.map(({ id: jobId, data }) => [jobId, data.recipients.length, data.settled]).sort(),
      ).toEqual([
        [campaignSendJobId(id, 1, 1, 1), 2, [1]],
        [campaignSendJobId(id, 1, 1, 2), 1, undefined],
      ]);
      // The ledger's outcomes are back in Redis: nobody answered is mailed again.
      expect(await ctx.redis.hgetall(tracker.keys(id, 1).outcomes)).toEqual({
        'a@example.tn': 's',
        'b@example.tn': 's',
        'd@example.tn': 'f|',
      });
      // Counted from the ledger, past the version the campaign holds.
      expect(await tracker.progress(tracker.keys(id, 1))).toEqual({
        sent: 2,
        failed: 1,
        version: 41,
        total: 5,
        dispatched: true,
      });
    });

    it('leaves a batch whose job Redis still holds, and retries one that gave up', async () => {
      const id = await campaignLeft(20 * MINUTE, { status: 'sending', dispatchedRound: 1 });
      await ledgerOfThreeBatches(id);
      const waiting = await sendQueue.add(
        QUEUE_NAMES.campaignSend,
        { campaignId: id, round: 1, pass: 1, seq: 2, recipients: [recipient('e')] },
        { jobId: campaignSendJobId(id, 1, 1, 2), delay: 60 * MINUTE },
      );
      await sendQueue.add(
        QUEUE_NAMES.campaignSend,
        { campaignId: id, round: 1, pass: 1, seq: 1, recipients: [recipient('c')] },
        { jobId: campaignSendJobId(id, 1, 1, 1) },
      );
      await failNext(QUEUE_NAMES.campaignSend);

      expect(await recover()).toMatchObject({ requeuedBatches: 0 });
      expect(await waiting.getState()).toBe('delayed');
      expect(await (await sendQueue.getJob(campaignSendJobId(id, 1, 1, 1)))?.getState()).toBe(
        'waiting',
      );
    });

    it('replaces the job of a batch that ended while the batch still owes mail', async () => {
      const id = await campaignLeft(20 * MINUTE, { status: 'sending', dispatchedRound: 1 });
      await ledgerOfThreeBatches(id);
      await sendQueue.add(
        QUEUE_NAMES.campaignSend,
        { campaignId: id, round: 1, pass: 1, seq: 2, recipients: [recipient('e')] },
        { jobId: campaignSendJobId(id, 1, 1, 2) },
      );
      await runNext(QUEUE_NAMES.campaignSend, () => Promise.resolve('skipped'));
      const ended = await sendQueue.getJob(campaignSendJobId(id, 1, 1, 2));
      expect(await ended?.getState()).toBe('completed');

      expect(await recover()).toMatchObject({ requeuedBatches: 2 });

      const again = await sendQueue.getJob(campaignSendJobId(id, 1, 1, 2));
      expect(await again?.getState()).toBe('waiting');
      expect(again?.data.recipients).toEqual([recipient('e')]);
    });

    it('is ended from the ledger when nothing is owed any more', async () => {
      const id = await campaignLeft(20 * MINUTE, { status: 'sending', dispatchedRound: 1 });
      await store.addBatches(id, 1, [
        { seq: 0, recipients: [recipient('a'), recipient('b'), recipient('c')] },
      ]);
      await store.recordOutcomes(id, 1, 0, [
        { position: 0, email: 'a@example.tn', outcome: { state: 'sent', attempts: 1 } },
        {
          position: 1,
          email: 'b@example.tn',
          outcome: { state: 'failed', reason: '550 no', attempts: 1 },
        },
        { position: 2, email: 'c@example.tn', outcome: { state: 'sent', attempts: 1 } },
      ]);

      expect(await recover()).toMatchObject({ finished: 1 });

      expect(await ctx.campaign(id)).toMatchObject({
        status: 'sent',
        sentCount: 2,
        failedCount: 1,
        total: 3,
      });
    });

    it('is left alone outside its sending window: its batches wait in the delayed set', async () => {
      const today = wallTimeOf(new Date(), 'Africa/Tunis').weekday;
      const closed = { days: [((today + 3) % 7) as Weekday], start: '08:00', end: '20:00' };
      await campaignLeft(20 * MINUTE, { status: 'sending', sendingWindow: closed });

      expect(await recover()).toMatchObject({ dispatches: 0 });
      expect(await dispatchJobs()).toEqual([]);
    });

    it('is left alone while it moves', async () => {
      const id = await campaignLeft(MINUTE, { status: 'sending', dispatchedRound: 1 });
      await store.addBatches(id, 1, [{ seq: 0, recipients: [recipient('a')] }]);

      expect(await recover()).toEqual({
        schedulesStarted: 0,
        dispatches: 0,
        requeuedBatches: 0,
        finished: 0,
      });
      expect(await sendQueue.getJobs(['waiting'])).toEqual([]);
      expect(await CampaignBatchModel.countDocuments({ campaign: new Types.ObjectId(id) })).toBe(1);
    });
  });

  /** Runs the next job of `queue` through `processor`, until it completes or fails. */
  async function runNext(queue: string, processor: () => Promise<unknown>): Promise<void> {
    const connection = ctx.redis.duplicate();
    const worker = new Worker(queue, processor, {
      connection,
      prefix: ctx.queuePrefix,
      autorun: false,
    });
    const ended = new Promise<Job | undefined>((resolve) => {
      worker.once('failed', resolve);
      worker.once('completed', resolve);
    });
    worker.run().catch(() => undefined);
    await ended;
    await worker.close();
    connection.disconnect();
  }

  /** Fails the next job of `queue` for good, as spent retries leave it. */
  const failNext = (queue: string) => runNext(queue, () => Promise.reject(new Error('store down')));
});
