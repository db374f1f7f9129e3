import { Queue, Worker, type Job } from 'bullmq';
import { Types } from 'mongoose';
import {
  QUEUE_NAMES,
  campaignSendJobId,
  type CampaignDispatchJob,
  type CampaignSendJob,
  type CampaignStatus,
} from '@agency/contracts';
import {
  WalkKeysLostError,
  campaignLinkTable,
  createKeptCounts,
  createLogger,
  keptAudienceTotal,
  reconcileStats,
  statsKeys,
  type KeptCounts,
  listMemberId,
  markListDeleting,
  withCampaignLock,
  mongoCampaignStore as store,
} from '@agency/platform';
import { ListMemberModel, MailingListModel } from '@agency/platform/testing/audience-models';
import { ContactAddressModel, ContactModel } from '@agency/platform/testing/contact-models';
import {
  TEST_SITE_URL,
  createCampaignContext,
  type CampaignContext,
} from '../testing/campaign-context';
import {
  campaignDispatchProcessor,
  type CampaignDispatchDeps,
  type DispatchResult,
} from './campaign-dispatch.processor';
import { counterFolds } from './counter-folds';
import { RoundTracker } from './round-tracker';
import { CampaignBatchModel, CampaignModel } from '@agency/platform/testing/campaigns-models';

/** A send queue that notes each bulk add's size, and can pause the campaign right after one, as a manager might. */
class WatchedSendQueue extends Queue<CampaignSendJob> {
  pauseAfterFirstAdd = '';
  /** Which bulk add the pause follows: the first unless told. */
  pauseAfterAdd = 1;
  /** What the manager does: a pause unless told. */
  change: (campaignId: string) => Promise<unknown> = (campaignId) =>
    CampaignModel.updateOne({ _id: campaignId }, { status: 'paused' });
  addSizes: number[] = [];
  /** The campaign's total as the dashboard would read it at each bulk add. */
  totalsAtAdds: number[] = [];

  override async addBulk(jobs: Parameters<Queue<CampaignSendJob>['addBulk']>[0]) {
    const added = await super.addBulk(jobs);
    this.addSizes.push(jobs.length);
    const campaignId = jobs[0]?.data.campaignId;
    const campaign = await CampaignModel.findById(campaignId, { total: 1 }).lean();
    this.totalsAtAdds.push(campaign?.total ?? -1);
    if (this.pauseAfterFirstAdd && this.addSizes.length === this.pauseAfterAdd) {
      await this.change(this.pauseAfterFirstAdd);
      this.pauseAfterFirstAdd = '';
    }
    return added;
  }
}

/** A tracker whose skippable writes always meet the campaign's lock held by another writer. */
class BusyLockTracker extends RoundTracker {
  constructor(private readonly ctx: CampaignContext) {
    super(ctx.redis, ctx.queuePrefix);
  }

  override writeIfFree<T>(campaignId: string, write: () => Promise<T>) {
    return withCampaignLock(this.ctx.redis, this.ctx.queuePrefix, campaignId, 0, () =>
      super.writeIfFree(campaignId, write),
    ).then((result) => result ?? undefined);
  }
}

/**
 * The dispatch on its own, called as BullMQ calls it, against the store, the
 * real send queue and Redis: how a campaign becomes ledger batches and send
 * jobs, what a replay adds (nothing), what a resume queues (what is owed),
 * and when it stops. The campaign tests run it inside a worker.
 */
describe('the campaign dispatch', () => {
  let ctx: CampaignContext;
  let sendQueue: WatchedSendQueue;
  let tracker: RoundTracker;
  let dispatch: (job: Job<CampaignDispatchJob>) => Promise<DispatchResult>;
  const logger = createLogger('test', 'silent');

  function processor(over: Partial<CampaignDispatchDeps> = {}) {
    return campaignDispatchProcessor({
      store,
      tracker,
      folds: counterFolds(async () => true, 0, logger),
      logger,
      sendQueue,
      batchSize: 2,
      sendJobOptions: { attempts: 4 },
      olderPassWaitMs: 5000,
      messenger: {
        trackedLinks: (mail) => [
          ...campaignLinkTable(mail, { senderName: 'Agency', siteUrl: TEST_SITE_URL }).links,
        ],
      },
      ...over,
    });
  }

  beforeAll(async () => {
    ctx = await createCampaignContext();
    sendQueue = new WatchedSendQueue(QUEUE_NAMES.campaignSend, {
      connection: ctx.redis,
      prefix: ctx.queuePrefix,
    });
    tracker = new RoundTracker(ctx.redis, ctx.queuePrefix);
    dispatch = processor();
  });
  afterAll(async () => {
    await sendQueue.close();
    await ctx.close();
  });
  beforeEach(async () => {
    await sendQueue.obliterate({ force: true });
    sendQueue.addSizes = [];
    sendQueue.totalsAtAdds = [];
    sendQueue.pauseAfterAdd = 1;
    sendQueue.change = (campaignId) =>
      CampaignModel.updateOne({ _id: campaignId }, { status: 'paused' });
    // A campaign to `contacts` mails every enquiry in the store: each test starts with none.
    await ContactModel.deleteMany({});
    await ContactAddressModel.deleteMany({});
    await CampaignModel.deleteMany({});
    await CampaignBatchModel.deleteMany({});
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
  const keys = (id: string) => tracker.keys(id, 1);

  it('records the total once every batch is queued, though the sends held the lock at each bulk add', async () => {
    const dispatchAmidSends = processor({ tracker: new BusyLockTracker(ctx) });
    const id = await seededCampaign(5);

    expect(await dispatchAmidSends(await dispatchJob(id))).toBe('dispatched');

    expect(await ctx.campaign(id)).toMatchObject({
      status: 'sending',
      total: 5,
      dispatchedRound: 1,
    });
  });

  it('turns a queued campaign into ledger batches and their send jobs, with the total', async () => {
    const id = await seededCampaign(5);

    expect(await dispatch(await dispatchJob(id))).toBe('dispatched');

    const jobs = await sendJobs();
    expect(jobs.map((job) => job.data.recipients.length).sort()).toEqual([1, 2, 2]);
    expect(jobs.every((job) => job.name === QUEUE_NAMES.campaignSend)).toBe(true);
    expect(jobs.every((job) => job.opts.attempts === 4)).toBe(true);
    expect(
      jobs.every(
        (job) => job.data.campaignId === id && job.data.round === 1 && job.data.pass === 1,
      ),
    ).toBe(true);
    expect(jobs.map((job) => job.id).sort()).toEqual(
      [0, 1, 2].map((seq) => campaignSendJobId(id, 1, 1, seq)).sort(),
    );
    const recipients = jobs.flatMap((job) => job.data.recipients);
    expect(recipients).toHaveLength(5);
    expect(recipients).toContainEqual({
      key: expect.stringMatching(/^r0\./),
      email: expect.stringMatching(/^r0\./),
      firstName: 'R0',
      lastName: 'Test',
      locale: 'fr',
      source: 0,
    });

    const campaign = await ctx.campaign(id);
    expect(campaign).toMatchObject({
      status: 'sending',
      total: 5,
      dispatchedRound: 1,
      // A campaign to contacts: its one source.
      mailsPerSource: { s0: 5 },
    });
    expect(campaign.startedAt).toBeInstanceOf(Date);
    // One roster per batch in the ledger, holding the batch's recipients as the job does.
    const batches = await ctx.ledgerBatches(id);
    expect(batches.map(({ seq, recipients }) => [seq, recipients.length])).toEqual([
      [0, 2],
      [1, 2],
      [2, 1],
    ]);
    for (const job of jobs) {
      const document = batches.find(({ seq }) => seq === job.data.seq);
      expect(document?.recipients.map(({ key }) => key)).toEqual(
        job.data.recipients.map(({ key }) => key),
      );
    }
    expect((await ctx.ledger(id)).every((line) => line.state === 'pending')).toBe(true);
    expect(await tracker.progress(keys(id))).toMatchObject({ total: 5, dispatched: true });
  });

  it('queues the first batch alone, so the first mail goes out at once, then adds in growing bulks', async () => {
    // 43 recipients in batches of 2: 22 batches.
    const id = await seededCampaign(43);

    expect(await dispatch(await dispatchJob(id))).toBe('dispatched');

    expect(sendQueue.addSizes).toEqual([1, 2, 4, 8, 7]);
    expect(await sendJobs()).toHaveLength(22);
    expect(await ctx.campaign(id)).toMatchObject({ total: 43 });
  });

  it('counts the whole audience before the first batch goes: the total never reads as the batches queued so far', async () => {
    const id = await seededCampaign(43);

    expect(await dispatch(await dispatchJob(id))).toBe('dispatched');

    expect(sendQueue.totalsAtAdds).toEqual([43, 43, 43, 43, 43]);
  });

  it('counts the audience again when a resume finds the first round not wholly queued', async () => {
    const id = await seededCampaign(9);
    sendQueue.pauseAfterFirstAdd = id;
    expect(await dispatch(await dispatchJob(id))).toBe('stopped');
    await CampaignModel.updateOne({ _id: id }, { status: 'queued', total: 0, $inc: { pass: 1 } });

    expect(await dispatch(await dispatchJob(id))).toBe('dispatched');

    expect(sendQueue.totalsAtAdds.slice(1).every((total) => total === 9)).toBe(true);
    expect(await ctx.campaign(id)).toMatchObject({ total: 9, dispatchedRound: 1 });
  });

  it('counts the audience once: not again for a round wholly queued, nor for a resend', async () => {
    let counts = 0;
    const counting = processor({
      store: {
        ...store,
        countAudience(target, met) {
          counts += 1;
          return store.countAudience(target, met);
        },
      },
    });
    const id = await seededCampaign(3);
    expect(await counting(await dispatchJob(id))).toBe('dispatched');
    expect(counts).toBe(1);

    // A resume of a round whose every batch is queued: the total is known.
    await CampaignModel.updateOne({ _id: id }, { status: 'queued', $inc: { pass: 1 } });
    expect(await counting(await dispatchJob(id))).toBe('dispatched');
    // A resend: its recipients are the failed of the last round, not the audience.
    await CampaignModel.updateOne(
      { _id: id },
      { status: 'queued', round: 2, pass: 1, dispatchedRound: 1 },
    );
    expect(await counting(await dispatchJob(id))).toBe('dispatched');

    expect(counts).toBe(1);
    expect(await ctx.campaign(id)).toMatchObject({ total: 3 });
  });

  /** A dispatch whose store counts its walks to count the audience. */
  function countingDispatch(over: Partial<CampaignDispatchDeps> = {}) {
    const walks = { counted: 0 };
    const run = processor({
      store: {
        ...store,
        countAudience(target, met) {
          walks.counted += 1;
          return store.countAudience(target, met);
        },
      },
      ...over,
    });
    return { run, walks };
  }

  const figuresOptions = () => ({ prefix: ctx.queuePrefix, timeZone: 'UTC', logger });
  /** The dashboard's kept figures, recounted from the store as the worker does at start. */
  async function recountedFigures(): Promise<KeptCounts> {
    await reconcileStats({ redis: ctx.redis, settleMs: 0, ...figuresOptions() });
    return createKeptCounts(ctx.redis, figuresOptions());
  }

  it('takes the total shown while it queues from the kept figures, walking the audience only to send', async () => {
    const id = await seededCampaign(43);
    const kept = await recountedFigures();
    // An enquiry stored behind the figures' back: they say 43, the walk finds 44.
    await ctx.seedContacts([{ email: `late.${id}@example.tn`, firstName: 'Late', locale: 'en' }]);
    const { run, walks } = countingDispatch({
      keptAudienceTotal: (target) => keptAudienceTotal(kept, target),
    });

    expect(await run(await dispatchJob(id))).toBe('dispatched');

    expect(walks.counted).toBe(0);
    expect(sendQueue.totalsAtAdds).toEqual([43, 43, 43, 43, 43]);
    // Once every batch is queued, the dispatch's own count is the total.
    expect(await ctx.campaign(id)).toMatchObject({ total: 44, dispatchedRound: 1 });
  });

  it('walks the audience to count it when the kept figures cannot be read', async () => {
    const id = await seededCampaign(5);
    const gone = ctx.redis.duplicate();
    await gone.quit();
    const { run, walks } = countingDispatch({
      keptAudienceTotal: (target) =>
        keptAudienceTotal(createKeptCounts(gone, figuresOptions()), target),
    });

    expect(await run(await dispatchJob(id))).toBe('dispatched');

    expect(walks.counted).toBe(1);
    expect(sendQueue.totalsAtAdds.every((total) => total === 5)).toBe(true);
  });

  it('walks the audience to count it when the kept figures count nobody yet', async () => {
    // Stored behind the API, and not recounted: the figures know of nobody.
    const id = await seededCampaign(5);
    await ctx.redis.del(statsKeys(ctx.queuePrefix, 'UTC').counts);
    const kept = createKeptCounts(ctx.redis, figuresOptions());
    const { run, walks } = countingDispatch({
      keptAudienceTotal: (target) => keptAudienceTotal(kept, target),
    });

    expect(await run(await dispatchJob(id))).toBe('dispatched');

    expect(walks.counted).toBe(1);
    expect(sendQueue.totalsAtAdds.every((total) => total === 5)).toBe(true);
  });

  it('walks the audience to count a send to lists, which the kept figures do not keep', async () => {
    const list = await MailingListModel.create({ name: 'Counted' });
    await ListMemberModel.create({
      _id: listMemberId(String(list._id), 'member@example.tn'),
      list: list._id,
      key: 'member@example.tn',
      email: 'member@example.tn',
      consent: { basis: 'import', at: new Date(), listName: list.name },
    });
    const id = await ctx.queueCampaign({ recipientType: 'lists', addDispatch: false });
    await CampaignModel.updateOne({ _id: id }, { listIds: [list._id] });
    const kept = await recountedFigures();
    const { run, walks } = countingDispatch({
      keptAudienceTotal: (target) => keptAudienceTotal(kept, target),
    });

    expect(await run(await dispatchJob(id))).toBe('dispatched');

    expect(walks.counted).toBe(1);
    expect(sendQueue.totalsAtAdds).toEqual([1]);
  });

  /** The Redis sets in which walks of the campaign's first round keep whom they met. */
  const walkSets = (id: string) => ctx.redis.keys(`${ctx.queuePrefix}:campaign:${id}:r1:walk:*`);

  it('keeps whom its walks met in Redis, not in the worker, and drops each set once its walk ends', async () => {
    const id = await seededCampaign(5);
    const metByWalk: number[] = [];
    /** The walk's set, read once the store has yielded the whole audience. */
    const noteWalkSet = async () => {
      const sets = await walkSets(id);
      expect(sets).toHaveLength(1);
      metByWalk.push(await ctx.redis.scard(sets[0] as string));
    };
    const watched = processor({
      store: {
        ...store,
        async countAudience(target, met) {
          const total = await store.countAudience(target, met);
          await noteWalkSet();
          return total;
        },
        async *audience(target, met) {
          yield* store.audience(target, met);
          await noteWalkSet();
        },
      },
    });

    expect(await watched(await dispatchJob(id))).toBe('dispatched');

    // The count, then the send's walk: each met the five, in a set of its own.
    expect(metByWalk).toEqual([5, 5]);
    expect(await walkSets(id)).toEqual([]);
    expect(await ctx.campaign(id)).toMatchObject({ total: 5 });
  });

  it('fails rather than queue anyone twice when Redis loses its walk midway', async () => {
    const id = await seededCampaign(3);
    const losing = processor({
      batchSize: 2,
      store: {
        ...store,
        async *audience(target, met) {
          // The first page is asked of the walk's set, which then vanishes.
          await met.firstMet(['someone-else@example.tn']);
          await Promise.all((await walkSets(id)).map((set) => ctx.redis.del(set)));
          yield* store.audience(target, met);
        },
      },
    });

    await expect(losing(await dispatchJob(id))).rejects.toThrow(WalkKeysLostError);
    expect(await sendJobs()).toHaveLength(0);
  });

  it('never bulks more than twenty batches at once', async () => {
    const id = await seededCampaign(2 * 60);

    expect(await dispatch(await dispatchJob(id))).toBe('dispatched');

    expect(sendQueue.addSizes).toEqual([1, 2, 4, 8, 16, 20, 9]);
  });

  it('adds nothing twice when it runs again after a crash', async () => {
    const id = await seededCampaign(3);
    await dispatch(await dispatchJob(id));
    const first = (await sendJobs()).map((job) => job.id).sort();
    // The crash came before the round was marked whole.
    await CampaignModel.updateOne({ _id: id }, { status: 'queued', dispatchedRound: 0 });

    expect(await dispatch(await dispatchJob(id))).toBe('dispatched');

    expect((await sendJobs()).map((job) => job.id).sort()).toEqual(first);
    expect(await ctx.ledger(id)).toHaveLength(3);
    expect(await ctx.campaign(id)).toMatchObject({ status: 'sending', total: 3 });
  });

  it('queues again what a crash left in the ledger without its job, and streams only who is missing', async () => {
    const id = await seededCampaign(5);
    await dispatch(await dispatchJob(id));
    const jobs = await sendJobs();
    // Redis lost the jobs, and the dispatch had not finished: one batch's document is gone too.
    await sendQueue.obliterate({ force: true });
    await CampaignBatchModel.deleteOne({ campaign: new Types.ObjectId(id), seq: 2 });
    await CampaignModel.updateOne({ _id: id }, { status: 'queued', dispatchedRound: 0 });

    expect(await dispatch(await dispatchJob(id))).toBe('dispatched');

    const again = await sendJobs();
    expect(again.map((job) => job.id).sort()).toEqual(jobs.map((job) => job.id).sort());
    expect(
      again
        .flatMap((job) => job.data.recipients)
        .map(({ key }) => key)
        .sort(),
    ).toEqual(
      jobs
        .flatMap((job) => job.data.recipients)
        .map(({ key }) => key)
        .sort(),
    );
    expect(await ctx.ledger(id)).toHaveLength(5);
    // The total counts the ledger's recipients and the streamed ones, once each.
    expect(await tracker.progress(keys(id))).toMatchObject({ total: 5, dispatched: true });
  });

  it('queues, on a resume, only the batches that still owe mail, naming who is settled', async () => {
    const id = await seededCampaign(5);
    await dispatch(await dispatchJob(id));
    const [first, second] = await ctx.ledgerBatches(id);
    // The first batch was sent; the second half-way before the pause.
    const sent = { state: 'sent', attempts: 1 } as const;
    await store.recordOutcomes(id, 1, 0, [
      { position: 0, email: first?.recipients[0]?.email ?? '', outcome: sent },
      { position: 1, email: first?.recipients[1]?.email ?? '', outcome: sent },
    ]);
    await store.recordOutcomes(id, 1, 1, [
      {
        position: 1,
        email: second?.recipients[1]?.email ?? '',
        outcome: { state: 'failed', reason: '550 no', attempts: 1 },
      },
    ]);
    await ctx.seedContacts([{ email: 'late@example.tn' }]);
    // A resume: queued again as the next pass.
    await CampaignModel.updateOne({ _id: id }, { status: 'queued', pass: 2 });

    expect(await dispatch(await dispatchJob(id))).toBe('dispatched');

    const resumed = (await sendJobs()).filter((job) => job.data.pass === 2);
    expect(resumed.map((job) => [job.data.seq, job.data.settled]).sort()).toEqual([
      [1, [1]],
      [2, undefined],
    ]);
    // The round's audience was whole: nobody who enquired since joins it.
    expect(await ctx.ledger(id)).toHaveLength(5);
    expect(await ctx.campaign(id)).toMatchObject({ total: 5 });
  });

  it('queues, on a resume, the batches owing mail in growing bulks too', async () => {
    // Eight recipients in batches of two: four batches, none sent before the pause.
    const id = await seededCampaign(8);
    await dispatch(await dispatchJob(id));
    await CampaignModel.updateOne({ _id: id }, { status: 'queued', pass: 2 });
    sendQueue.addSizes = [];
    sendQueue.totalsAtAdds = [];

    expect(await dispatch(await dispatchJob(id))).toBe('dispatched');

    expect(sendQueue.addSizes).toEqual([1, 2, 1]);
    expect((await sendJobs()).filter((job) => job.data.pass === 2)).toHaveLength(4);
  });

  it('waits, on a resume, until no batch of an older pass is still being sent', async () => {
    const id = await seededCampaign(2);
    await dispatch(await dispatchJob(id));
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const connection = ctx.redis.duplicate();
    const sender = new Worker<CampaignSendJob>(
      QUEUE_NAMES.campaignSend,
      async (job) => {
        if (job.data.pass === 1) await held;
      },
      { connection, prefix: ctx.queuePrefix },
    );
    try {
      await new Promise((resolve) => sender.once('active', resolve));
      await CampaignModel.updateOne({ _id: id }, { status: 'queued', pass: 2 });

      const resumed = dispatch(await dispatchJob(id));
      await new Promise((resolve) => setTimeout(resolve, 600));
      expect(await sendQueue.getJob(campaignSendJobId(id, 1, 2, 0))).toBeUndefined();
      release();

      expect(await resumed).toBe('dispatched');
      expect(await sendQueue.getJob(campaignSendJobId(id, 1, 2, 0))).toBeDefined();
    } finally {
      release();
      await sender.close();
      connection.disconnect();
    }
  });

  it('waits, on a resume, for no batch but those of its own older passes', async () => {
    const id = await seededCampaign(2);
    await CampaignModel.updateOne({ _id: id }, { pass: 2 });
    // Another campaign's batch, and one of this pass (a dispatch run again after a crash),
    // are being sent, and will be for as long as the test runs.
    const otherBatch = campaignSendJobId(new Types.ObjectId().toHexString(), 1, 1, 0);
    const ownBatch = campaignSendJobId(id, 1, 2, 7);
    for (const jobId of [otherBatch, ownBatch]) {
      await sendQueue.add(
        QUEUE_NAMES.campaignSend,
        { campaignId: 'other', round: 1, pass: 1, seq: 0, recipients: [] },
        { jobId },
      );
    }
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const connection = ctx.redis.duplicate();
    const sender = new Worker<CampaignSendJob>(QUEUE_NAMES.campaignSend, () => held, {
      connection,
      prefix: ctx.queuePrefix,
      concurrency: 2,
    });
    let started = 0;
    const bothActive = new Promise<void>((resolve) => {
      sender.on('active', () => {
        started += 1;
        if (started === 2) resolve();
      });
    });
    try {
      await bothActive;
      expect(await (await sendQueue.getJob(otherBatch))?.getState()).toBe('active');
      expect(await (await sendQueue.getJob(ownBatch))?.getState()).toBe('active');

      // A wait for the other batch would outlast the test.
      const resumed = processor({ olderPassWaitMs: 60_000 });
      expect(await resumed(await dispatchJob(id))).toBe('dispatched');

      expect(await sendQueue.getJob(campaignSendJobId(id, 1, 2, 0))).toBeDefined();
    } finally {
      release();
      await sender.close();
      connection.disconnect();
    }
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

  it('stops after a bulk add once the campaign is paused, leaving the round open', async () => {
    const id = await seededCampaign(42);
    sendQueue.pauseAfterFirstAdd = id;

    expect(await dispatch(await dispatchJob(id))).toBe('stopped');

    expect(await sendJobs()).toHaveLength(1);
    expect(await ctx.ledger(id)).toHaveLength(2);
    expect(await tracker.progress(keys(id))).toMatchObject({ dispatched: false });
    expect(await walkSets(id)).toEqual([]);
    // The progress bar already showed the whole audience.
    expect(await ctx.campaign(id)).toMatchObject({
      status: 'paused',
      total: 42,
      dispatchedRound: 0,
    });
  });

  it('stops once the campaign was paused and resumed meanwhile: the new pass queues the rest', async () => {
    const id = await seededCampaign(42);
    sendQueue.pauseAfterFirstAdd = id;
    sendQueue.change = (campaignId) =>
      CampaignModel.updateOne({ _id: campaignId }, { status: 'queued', pass: 2 });

    expect(await dispatch(await dispatchJob(id))).toBe('stopped');

    expect(await sendJobs()).toHaveLength(1);
  });

  it('stops once the campaign was deleted meanwhile', async () => {
    const id = await seededCampaign(42);
    sendQueue.pauseAfterFirstAdd = id;
    sendQueue.change = (campaignId) => CampaignModel.deleteOne({ _id: campaignId });

    expect(await dispatch(await dispatchJob(id))).toBe('stopped');

    expect(await sendJobs()).toHaveLength(1);
  });

  it('stops after the add of its last, partial batch once the campaign is paused', async () => {
    // One recipient, batches of two: the only batch is the partial one.
    const id = await seededCampaign(1);
    sendQueue.pauseAfterFirstAdd = id;

    expect(await dispatch(await dispatchJob(id))).toBe('stopped');

    expect(await sendJobs()).toHaveLength(1);
    expect(await ctx.campaign(id)).toMatchObject({ status: 'paused', dispatchedRound: 0 });
  });

  it('stops at the last bulk add once the campaign is paused, leaving the round open', async () => {
    // Three recipients: one batch added alone, then the last one in the closing add.
    const id = await seededCampaign(3);
    sendQueue.pauseAfterFirstAdd = id;
    sendQueue.pauseAfterAdd = 2;

    expect(await dispatch(await dispatchJob(id))).toBe('stopped');

    expect(sendQueue.addSizes).toEqual([1, 1]);
    expect(await tracker.progress(keys(id))).toMatchObject({ dispatched: false });
    expect(await ctx.campaign(id)).toMatchObject({ status: 'paused', dispatchedRound: 0 });
  });

  it('stops, on a resume, after queuing again the first batch owing mail, once paused again', async () => {
    const id = await seededCampaign(5);
    await dispatch(await dispatchJob(id));
    await CampaignModel.updateOne({ _id: id }, { status: 'queued', pass: 2 });
    sendQueue.addSizes = [];
    sendQueue.totalsAtAdds = [];
    sendQueue.pauseAfterFirstAdd = id;

    expect(await dispatch(await dispatchJob(id))).toBe('stopped');

    expect(sendQueue.addSizes).toEqual([1]);
    expect((await sendJobs()).filter((job) => job.data.pass === 2)).toHaveLength(1);
    expect(await ctx.campaign(id)).toMatchObject({ status: 'paused' });
  });

  it('finishes at once a campaign with nobody to mail', async () => {
    const id = await ctx.queueCampaign({ recipientType: 'contacts', addDispatch: false });

    expect(await dispatch(await dispatchJob(id))).toBe('dispatched');

    expect(await sendJobs()).toEqual([]);
    expect(sendQueue.addSizes).toEqual([]);
    expect(await ctx.campaign(id)).toMatchObject({ status: 'sent', total: 0, sentCount: 0 });
  });

  it('resends to those whose last round failed, under the round and without touching the total', async () => {
    const id = await ctx.queueCampaign({ recipientType: 'contacts', addDispatch: false });
    await CampaignModel.updateOne(
      { _id: id },
      { round: 2, total: 7, roundBaseSent: 6, dispatchedRound: 1 },
    );
    await store.addBatches(id, 1, [
      {
        seq: 0,
        recipients: ['sent', 'failed'].map((state) => ({
          key: `${state}@example.tn`,
          email: `${state}@example.tn`,
          firstName: 'Sami',
          lastName: '',
          locale: 'ar',
        })),
      },
    ]);
    await store.recordOutcomes(id, 1, 0, [
      { position: 0, email: 'sent@example.tn', outcome: { state: 'sent', attempts: 1 } },
      {
        position: 1,
        email: 'failed@example.tn',
        outcome: { state: 'failed', reason: '451 later', attempts: 8 },
      },
    ]);

    expect(await dispatch(await dispatchJob(id))).toBe('dispatched');

    const jobs = await sendJobs();
    expect(jobs.map((job) => [job.data.round, job.data.recipients])).toEqual([
      [
        2,
        [
          {
            key: 'failed@example.tn',
            email: 'failed@example.tn',
            firstName: 'Sami',
            lastName: '',
            locale: 'ar',
          },
        ],
      ],
    ]);
    expect(await ctx.campaign(id)).toMatchObject({
      status: 'sending',
      round: 2,
      total: 7,
      dispatchedRound: 2,
    });
  });
  it('mails nobody of a list being deleted, and everyone of the other lists', async () => {
    const going = await MailingListModel.create({ name: 'Going' });
    const kept = await MailingListModel.create({ name: 'Kept' });
    const member = (list: typeof going, key: string) => ({
      _id: listMemberId(String(list._id), key),
      list: list._id,
      key,
      email: key,
      consent: { basis: 'import', at: new Date(), listName: list.name },
    });
    await ListMemberModel.insertMany([
      member(going, 'leaving1@example.tn'),
      member(going, 'leaving2@example.tn'),
      member(kept, 'staying@example.tn'),
    ]);
    const id = await ctx.queueCampaign({ recipientType: 'lists', addDispatch: false });
    await CampaignModel.updateOne({ _id: id }, { listIds: [going._id, kept._id] });
    // Deletion asked for after the campaign was written: its members are all still there.
    await markListDeleting(String(going._id));

    expect(await dispatch(await dispatchJob(id))).toBe('dispatched');

    const recipients = (await sendJobs()).flatMap((job) => job.data.recipients);
    expect(recipients.map(({ key }) => key)).toEqual(['staying@example.tn']);
    expect(await ctx.campaign(id)).toMatchObject({ total: 1 });
  });

  it('counts each recipient once under the list the walk found it in, after a resume too, and keeps it in the roster', async () => {
    const [first, second] = await MailingListModel.create([{ name: 'First' }, { name: 'Second' }]);
    const member = (list: NonNullable<typeof first>, key: string) => ({
      _id: listMemberId(String(list._id), key),
      list: list._id,
      key,
      email: key,
      consent: { basis: 'import', at: new Date(), listName: list.name },
    });
    if (!first || !second) throw new Error('lists not made');
    await ListMemberModel.insertMany([
      member(first, 'a@example.tn'),
      member(first, 'b@example.tn'),
      member(first, 'both@example.tn'),
      member(second, 'both@example.tn'),
      member(second, 'c@example.tn'),
    ]);
    const id = await ctx.queueCampaign({ recipientType: 'lists', addDispatch: false });
    await CampaignModel.updateOne({ _id: id }, { listIds: [first._id, second._id] });
    // Paused after the first batch: the resume counts that batch from the ledger, the rest from the walk.
    sendQueue.pauseAfterFirstAdd = id;
    expect(await dispatch(await dispatchJob(id))).toBe('stopped');
    await CampaignModel.updateOne({ _id: id }, { status: 'queued', $inc: { pass: 1 } });

    expect(await dispatch(await dispatchJob(id))).toBe('dispatched');

    const recipients = (await sendJobs()).flatMap((job) => job.data.recipients);
    const sourceOf = new Map(recipients.map(({ key, source }) => [key, source]));
    expect(sourceOf.get('a@example.tn')).toBe(0);
    expect(sourceOf.get('c@example.tn')).toBe(1);
    expect([0, 1]).toContain(sourceOf.get('both@example.tn'));
    const inFirst = 2 + (sourceOf.get('both@example.tn') === 0 ? 1 : 0);
    const campaign = await ctx.campaign(id);
    expect(campaign).toMatchObject({ total: 4, mailsPerSource: { s0: inFirst, s1: 4 - inFirst } });
    const rosters = await CampaignBatchModel.find({ campaign: id }).lean();
    const rostered = rosters.flatMap((batch) => batch.recipients);
    expect(rostered.map(({ key, source }) => [key, source]).sort()).toEqual([...sourceOf].sort());
  });
});
