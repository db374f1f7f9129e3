import { createLogger, mongoCampaignStore as store } from '@agency/platform';
import { CampaignModel } from '@agency/platform/testing/campaigns-models';
import { createCampaignContext, type CampaignContext } from '../testing/campaign-context';
import { counterFolds, type CounterFolds } from './counter-folds';
import { finishRound, settleRoundIfDone } from './round-end';
import { RoundTracker } from './round-tracker';

/**
 * The end of a round on its own, against the store and Redis: what it
 * writes, what it lets expire, and the counter folds it stops. The send and
 * dispatch tests reach it through their batches.
 */
describe("the end of a campaign's round", () => {
  let ctx: CampaignContext;
  let tracker: RoundTracker;
  let folds: CounterFolds;
  let folded: number[];
  const logger = createLogger('test', 'silent');

  beforeAll(async () => {
    ctx = await createCampaignContext();
  });
  afterAll(async () => {
    await ctx.close();
  });
  beforeEach(() => {
    tracker = new RoundTracker(ctx.redis, ctx.queuePrefix);
    folded = [];
    // Folds an hour apart: the second one waits for the whole test.
    folds = counterFolds(
      async (_campaign, progress) => {
        folded.push(progress.version);
        return true;
      },
      3_600_000,
      logger,
    );
  });
  afterEach(() => folds.close());

  /** A campaign sending with its round's state in Redis: one recipient answered, one fold waiting. */
  async function roundUnderWay(status: 'sending' | 'cancelled') {
    const id = await ctx.queueCampaign({ addDispatch: false });
    await CampaignModel.updateOne({ _id: id }, { status });
    const campaign = await store.sendState(id);
    if (!campaign) throw new Error('no campaign');
    const keys = tracker.keys(id, 1);
    const wave = await tracker.wave(
      id,
      keys,
      [{ key: 'a@example.tn', outcome: { state: 'sent', attempts: 1 } }],
      0,
      [],
    );
    folds.fold(campaign, wave.progress);
    while (folded.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    folds.fold(campaign, { ...wave.progress, version: wave.progress.version + 1 });
    expect(folds.busy()).toBe(true);
    return { id, campaign, keys };
  }

  it('writes the end, lets the round’s Redis state expire and stops its folds', async () => {
    const { id, campaign, keys } = await roundUnderWay('sending');

    await finishRound({ store, tracker, folds, logger }, campaign, keys, {
      sent: 1,
      failed: 0,
      version: 1,
    });

    expect(await ctx.campaign(id)).toMatchObject({ status: 'sent', sentCount: 1 });
    expect(await ctx.redis.ttl(keys.counts)).toBeGreaterThan(0);
    expect(folds.busy()).toBe(false);
    expect(folded).toEqual([1]);
  });

  it('leaves a cancelled campaign cancelled, and its round’s state where it is', async () => {
    const { id, campaign, keys } = await roundUnderWay('cancelled');

    await finishRound({ store, tracker, folds, logger }, campaign, keys, {
      sent: 1,
      failed: 0,
      version: 1,
    });

    expect(await ctx.campaign(id)).toMatchObject({ status: 'cancelled' });
    expect(await ctx.redis.ttl(keys.counts)).toBe(-1);
    expect(folds.busy()).toBe(false);
  });

  it('folds the counters of a round still owed mail, and ends a settled one', async () => {
    const { id, campaign, keys } = await roundUnderWay('sending');
    const deps = { store, tracker, folds, logger };

    await settleRoundIfDone(deps, campaign, keys, {
      sent: 1,
      failed: 0,
      version: 5,
      total: 2,
      dispatched: true,
    });
    expect(await ctx.campaign(id)).toMatchObject({ status: 'sending' });
    expect(folds.busy()).toBe(true);

    await settleRoundIfDone(deps, campaign, keys, {
      sent: 1,
      failed: 1,
      version: 6,
      total: 2,
      dispatched: true,
    });
    expect(await ctx.campaign(id)).toMatchObject({ status: 'sent', failedCount: 1 });
  });
});
