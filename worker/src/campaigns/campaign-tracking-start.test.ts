import type { Job } from 'bullmq';
import { QUEUE_NAMES, type CampaignDispatchJob } from '@agency/contracts';
import {
  campaignLinkTable,
  createLogger,
  readAgencySettings,
  saveAgencySettings,
  mongoCampaignStore as store,
} from '@agency/platform';
import { CampaignModel } from '@agency/platform/testing/campaigns-models';
import {
  TEST_SITE_URL,
  createCampaignContext,
  type CampaignContext,
} from '../testing/campaign-context';
import { campaignDispatchProcessor } from './campaign-dispatch.processor';
import { needsTrackingKey, startCampaignTracking } from './campaign-tracking-start';
import { counterFolds } from './counter-folds';
import { RoundTracker } from './round-tracker';

const messenger = {
  trackedLinks: (mail: Parameters<typeof campaignLinkTable>[0]) => [
    ...campaignLinkTable(mail, { senderName: 'Agency', siteUrl: TEST_SITE_URL }).links,
  ],
};

const CONTENT =
  '<p>See <a href="https://shop.example/packs">the packs</a> and ' +
  '<a href="http://site.test/newsletter/preferences">your preferences</a>.</p>';
const FRENCH_CONTENT =
  '<p>Voir https://shop.example/fr et <a href="https://shop.example/packs">les offres</a></p>';

describe('whether a send makes the key', () => {
  const tracking = { opens: true, clicks: true, key: null, keyDestroyed: false, links: [] };
  it('does for a campaign that tracks opens or clicks and has none', () => {
    expect(needsTrackingKey(tracking)).toBe(true);
    expect(needsTrackingKey({ ...tracking, opens: false })).toBe(true);
    expect(needsTrackingKey({ ...tracking, clicks: false })).toBe(true);
  });
  it('does not when it tracks nothing, has one, or had one', () => {
    expect(needsTrackingKey({ ...tracking, opens: false, clicks: false })).toBe(false);
    expect(needsTrackingKey({ ...tracking, key: 'k'.repeat(43) })).toBe(false);
    expect(needsTrackingKey({ ...tracking, keyDestroyed: true })).toBe(false);
  });
});

/**
 * When a round's dispatch starts, a campaign that tracks gets its key, the
 * agency's mode and its link table, once: against the store and Redis, the
 * dispatch called as BullMQ calls it.
 */
describe("the start of a campaign's tracking", () => {
  let ctx: CampaignContext;
  let tracker: RoundTracker;
  let dispatch: (job: Job<CampaignDispatchJob>) => Promise<unknown>;
  const logger = createLogger('test', 'silent');
  const deps = () => ({ store, tracker, messenger });

  beforeAll(async () => {
    ctx = await createCampaignContext();
    tracker = new RoundTracker(ctx.redis, ctx.queuePrefix);
    const { Queue } = await import('bullmq');
    dispatch = campaignDispatchProcessor({
      store,
      tracker,
      folds: counterFolds(async () => true, 0, logger),
      logger,
      sendQueue: new Queue(QUEUE_NAMES.campaignSend, {
        connection: ctx.redis,
        prefix: ctx.queuePrefix,
      }),
      batchSize: 50,
      sendJobOptions: { attempts: 1 },
      olderPassWaitMs: 100,
      messenger,
    });
  });
  afterAll(async () => {
    await ctx.close();
  });

  async function setAgencyMode(mode: 'anonymous' | 'individual') {
    const current = await readAgencySettings();
    await saveAgencySettings({ ...current, tracking: { ...current.tracking, mode } }, 'test');
  }

  const dispatchOf = async (id: string) =>
    dispatch(await ctx.dispatchQueue.add(QUEUE_NAMES.campaignDispatch, { campaignId: id }));
  const trackingOf = async (id: string) => (await CampaignModel.findById(id).lean())?.tracking;

  it("stores a key, the agency's mode now and every language's links, in the locales' order", async () => {
    await setAgencyMode('individual');
    const id = await ctx.queueCampaign({
      content: FRENCH_CONTENT,
      defaultLocale: 'fr',
      subject: 'Offres',
      translations: [
        {
          locale: 'en',
          subject: 'Offers',
          content: `${CONTENT}<p><a href="https://shop.example/en">in English</a></p>`,
        },
      ],
      addDispatch: false,
    });

    expect(await dispatchOf(id)).toBe('dispatched');

    const tracking = await trackingOf(id);
    expect(tracking?.key).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(tracking?.mode).toBe('individual');
    // English first, whatever the default; the subscription page is never tracked.
    expect(tracking?.links).toEqual([
      'https://shop.example/packs',
      'https://shop.example/en',
      'https://shop.example/fr',
    ]);
    await setAgencyMode('anonymous');
  });

  it('stores no table when clicks are off, and no key when nothing is tracked', async () => {
    const opensOnly = await ctx.queueCampaign({
      content: CONTENT,
      tracking: { opens: true, clicks: false },
      addDispatch: false,
    });
    const neither = await ctx.queueCampaign({
      content: CONTENT,
      tracking: { opens: false, clicks: false },
      addDispatch: false,
    });
    await dispatchOf(opensOnly);
    await dispatchOf(neither);

    expect(await trackingOf(opensOnly)).toMatchObject({
      key: expect.stringMatching(/^.{43}$/),
      mode: 'anonymous',
      links: [],
    });
    expect(await trackingOf(neither)).toMatchObject({ key: null, mode: null, links: [] });
  });

  it('never makes a new key for a campaign whose key was destroyed', async () => {
    const id = await ctx.queueCampaign({ content: CONTENT, addDispatch: false });
    const destroyedAt = new Date();
    await CampaignModel.updateOne(
      { _id: id },
      { $set: { 'tracking.keyDestroyedAt': destroyedAt } },
    );

    await dispatchOf(id);

    expect(await trackingOf(id)).toMatchObject({ key: null, keyDestroyedAt: destroyedAt });
  });

  it('leaves a destroyed key destroyed when the store is asked to start it (a dispatch read before)', async () => {
    const id = await ctx.queueCampaign({ content: CONTENT, addDispatch: false });
    await CampaignModel.updateOne({ _id: id }, { $set: { 'tracking.keyDestroyedAt': new Date() } });

    const answered = await store.startTracking(id, { key: 'k'.repeat(43), links: [] });

    expect(answered).toMatchObject({ key: null, keyDestroyed: true });
    expect((await trackingOf(id))?.key).toBeNull();
  });

  it('agrees on one key when two dispatches start it at once', async () => {
    const id = await ctx.queueCampaign({ content: CONTENT, addDispatch: false });

    const [first, second] = await Promise.all([
      startCampaignTracking(deps(), id),
      startCampaignTracking(deps(), id),
    ]);

    const stored = await trackingOf(id);
    expect(stored?.key).toMatch(/^.{43}$/);
    expect(first?.key).toBe(stored?.key);
    expect(second?.key).toBe(stored?.key);
  });

  it('keeps the first key and table through a resume and a resend, whatever changed since', async () => {
    const id = await ctx.queueCampaign({ content: CONTENT, addDispatch: false });
    await dispatchOf(id);
    const started = await trackingOf(id);

    // A resume is a new pass; the content cannot change once sent, but the table must not move even if it did.
    await CampaignModel.updateOne(
      { _id: id },
      {
        $set: {
          status: 'queued',
          pass: 2,
          queuedAt: new Date(),
          content: '<p><a href="https://other.example/">other</a></p>',
        },
      },
    );
    await dispatchOf(id);
    expect(await trackingOf(id)).toEqual(started);

    await CampaignModel.updateOne(
      { _id: id },
      { $set: { status: 'queued', round: 2, pass: 1, queuedAt: new Date() } },
    );
    await dispatchOf(id);
    expect(await trackingOf(id)).toEqual(started);
  });
});
