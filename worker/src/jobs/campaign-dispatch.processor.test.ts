import { Queue, type Job } from 'bullmq';
import mongoose, { Types } from 'mongoose';
import {
  CAMPAIGN_QUEUE_NAMES,
  QUEUE_NAMES,
  type CampaignDispatchJob,
  type CampaignSendJob,
  type CampaignStatus,
} from '@agency/contracts';
import {
  CampaignModel,
  CampaignRecipientModel,
  createLogger,
  withCampaignLock,
} from '@agency/backend/store';
import { SendLedger } from '../campaigns/send-ledger';
import { createCampaignContext, type CampaignContext } from '../testing/campaign-context';
import { campaignDispatchProcessor, type DispatchResult } from './campaign-dispatch.processor';

/** A send queue that pauses the campaign right after the first bulk add, as a manager might. */
class PausingSendQueue extends Queue<CampaignSendJob> {
  pauseAfterFirstAdd = '';

  override async addBulk(jobs: Parameters<Queue<CampaignSendJob>['addBulk']>[0]) {
    const added = await super.addBulk(jobs);
    if (this.pauseAfterFirstAdd) {
      await CampaignModel.updateOne({ _id: this.pauseAfterFirstAdd }, { status: 'paused' });
      this.pauseAfterFirstAdd = '';
    }
    return added;
  }
}

/**
 * The dispatch on its own, called as BullMQ calls it, against MongoDB, the
 * real send queue and the Redis ledger: how a campaign becomes send jobs, what
 * a replay adds (nothing), and when it stops. The campaign tests run it
 * inside a worker.
 */
describe('the campaign dispatch', () => {
  let ctx: CampaignContext;
  let sendQueue: PausingSendQueue;
  let ledger: SendLedger;
  let dispatch: (job: Job<CampaignDispatchJob>) => Promise<DispatchResult>;

  beforeAll(async () => {
    ctx = await createCampaignContext();
    sendQueue = new PausingSendQueue(CAMPAIGN_QUEUE_NAMES.send, {
      connection: ctx.redis,
      prefix: ctx.queuePrefix,
    });
    ledger = new SendLedger(ctx.redis, ctx.queuePrefix);
    dispatch = campaignDispatchProcessor({
      sendQueue,
      ledger,
      batchSize: 2,
      sendJobOptions: { attempts: 4 },
      logger: createLogger('test', 'silent'),
    });
  });
  afterAll(async () => {
    await sendQueue.close();
    await ctx.close();
  });
  beforeEach(async () => {
    await sendQueue.obliterate({ force: true });
    // A campaign to `contacts` mails every enquiry in the store: each test starts with none.
    await mongoose.model('Contact').deleteMany({});
    await CampaignModel.deleteMany({});
    await CampaignRecipientModel.deleteMany({});
  });

  const dispatchJob = (campaignId: string) =>
    ctx.dispatchQueue.add(QUEUE_NAMES.campaignDispatch, { campaignId });

  async function seededCampaign(count: number): Promise<string> {
    const tag = new Types.ObjectId().toHexString();
    await ctx.seedContacts(
      Array.from({ length: count }, (_, index) => ({
        email: `r${index}.${tag}@example.tn`,
        firstName: `R${index}`,
        locale: index % 2 === 0 ? 'fr' : 'en',
      })),
    );
    return ctx.queueCampaign({ recipientType: 'contacts', addDispatch: false });
  }

  const sendJobs = (): Promise<Job<CampaignSendJob>[]> => sendQueue.getJobs(['waiting']);

  it('records the total once every batch is queued, though the sends held the lock at each bulk add', async () => {
    /** A ledger whose skippable writes always meet the campaign's lock held by another writer. */
    class BusyLockLedger extends SendLedger {
      override writeIfFree(campaignId: string, write: () => Promise<unknown>) {
        return withCampaignLock(ctx.redis, ctx.queuePrefix, campaignId, 0, () =>
          super.writeIfFree(campaignId, write),
        );
      }
    }
    const dispatchAmidSends = campaignDispatchProcessor({
      sendQueue,
      ledger: new BusyLockLedger(ctx.redis, ctx.queuePrefix),
      batchSize: 2,
      sendJobOptions: { attempts: 4 },
      logger: createLogger('test', 'silent'),
    });
    const id = await seededCampaign(5);

    expect(await dispatchAmidSends(await dispatchJob(id))).toBe('dispatched');

    expect(await ctx.campaign(id)).toMatchObject({ status: 'sending', total: 5 });
  });

  it('turns a queued campaign into batches of send jobs, with its ledger and total', async () => {
    const id = await seededCampaign(5);

    expect(await dispatch(await dispatchJob(id))).toBe('dispatched');

    const jobs = await sendJobs();
    expect(jobs.map((job) => job.data.recipients.length).sort()).toEqual([1, 2, 2]);
    expect(jobs.every((job) => job.name === CAMPAIGN_QUEUE_NAMES.send)).toBe(true);
    expect(jobs.every((job) => job.opts.attempts === 4)).toBe(true);
    expect(jobs.every((job) => job.data.campaignId === id && job.data.round === 1)).toBe(true);
    const recipients = jobs.flatMap((job) => job.data.recipients);
    expect(recipients).toHaveLength(5);
    expect(recipients).toContainEqual({
      key: expect.stringMatching(/^r0\./),
      email: expect.stringMatching(/^r0\./),
      firstName: 'R0',
      locale: 'fr',
    });

    const campaign = await ctx.campaign(id);
    expect(campaign).toMatchObject({ status: 'sending', total: 5 });
    expect(campaign.startedAt).toBeInstanceOf(Date);
    const facts = await ctx.ledger(id);
    expect(facts).toHaveLength(5);
    expect(facts.every((fact) => fact.state === 'pending' && fact.round === 1)).toBe(true);
    expect(await ledger.state(ledger.keys(id, 1))).toMatchObject({ total: 5, dispatched: true });
  });

  it('adds nothing twice when it runs again after a crash', async () => {
    const id = await seededCampaign(3);
    await dispatch(await dispatchJob(id));
    const first = (await sendJobs()).map((job) => job.id).sort();

    expect(await dispatch(await dispatchJob(id))).toBe('dispatched');

    expect((await sendJobs()).map((job) => job.id).sort()).toEqual(first);
    expect(await ctx.ledger(id)).toHaveLength(3);
    expect(await ctx.campaign(id)).toMatchObject({ status: 'sending', total: 3 });
  });

  it.each<CampaignStatus>(['draft', 'paused', 'cancelled', 'sent'])(
    'sends nothing for a campaign that is %s',
    async (status) => {
      const id = await seededCampaign(2);
      await CampaignModel.updateOne({ _id: id }, { status });

      expect(await dispatch(await dispatchJob(id))).toBe('skipped');

      expect(await sendJobs()).toEqual([]);
      expect(await ctx.campaign(id)).toMatchObject({ status });
    },
  );

  it('sends nothing for a campaign that no longer exists', async () => {
    expect(await dispatch(await dispatchJob(new Types.ObjectId().toHexString()))).toBe('skipped');
    expect(await sendJobs()).toEqual([]);
  });

  it('stops between two bulk adds once the campaign is paused, leaving the round open', async () => {
    // 42 recipients in batches of 2: 21 batches, one more than a bulk add holds.
    const id = await seededCampaign(42);
    sendQueue.pauseAfterFirstAdd = id;

    expect(await dispatch(await dispatchJob(id))).toBe('stopped');

    expect(await sendJobs()).toHaveLength(20);
    expect(await ctx.ledger(id)).toHaveLength(40);
    expect(await ledger.state(ledger.keys(id, 1))).toMatchObject({ dispatched: false });
    // The progress bar already showed the total growing.
    expect(await ctx.campaign(id)).toMatchObject({ status: 'paused', total: 40 });
  });

  it('does not close the round when the campaign is paused during its only bulk add', async () => {
    const id = await seededCampaign(3);
    sendQueue.pauseAfterFirstAdd = id;

    expect(await dispatch(await dispatchJob(id))).toBe('stopped');

    expect(await sendJobs()).toHaveLength(2);
    expect(await ledger.state(ledger.keys(id, 1))).toMatchObject({ dispatched: false });
    expect(await ctx.campaign(id)).toMatchObject({ status: 'paused' });
  });

  it('queues the last, partial bulk add too', async () => {
    const id = await seededCampaign(43);

    expect(await dispatch(await dispatchJob(id))).toBe('dispatched');

    expect(await sendJobs()).toHaveLength(22);
    expect(await ctx.campaign(id)).toMatchObject({ total: 43 });
  });

  it('finishes at once a campaign with nobody to mail', async () => {
    const id = await ctx.queueCampaign({ recipientType: 'contacts', addDispatch: false });

    expect(await dispatch(await dispatchJob(id))).toBe('dispatched');

    expect(await sendJobs()).toEqual([]);
    expect(await ctx.campaign(id)).toMatchObject({ status: 'sent', total: 0, sentCount: 0 });
  });

  it('resends to those whose last round failed, under the round and without touching the total', async () => {
    const id = await ctx.queueCampaign({ recipientType: 'contacts', addDispatch: false });
    await CampaignModel.updateOne({ _id: id }, { round: 2, total: 7, roundBaseSent: 6 });
    const fact = (email: string, state: 'sent' | 'failed') => ({
      _id: `${id}:1:${email}`,
      campaign: new Types.ObjectId(id),
      round: 1,
      state,
      email,
      firstName: 'Sami',
      locale: 'ar',
      at: new Date(),
    });
    await CampaignRecipientModel.insertMany([
      fact('sent@example.tn', 'sent'),
      fact('failed@example.tn', 'failed'),
    ]);

    expect(await dispatch(await dispatchJob(id))).toBe('dispatched');

    const jobs = await sendJobs();
    expect(jobs.map((job) => [job.data.round, job.data.recipients])).toEqual([
      [
        2,
        [{ key: 'failed@example.tn', email: 'failed@example.tn', firstName: 'Sami', locale: 'ar' }],
      ],
    ]);
    expect(await ctx.campaign(id)).toMatchObject({ status: 'sending', round: 2, total: 7 });
  });
});
