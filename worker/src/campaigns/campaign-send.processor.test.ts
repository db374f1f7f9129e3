import { Semaphore } from 'async-mutex';
import { DelayedError, Worker, type Job } from 'bullmq';
import { Types } from 'mongoose';
import type { ParsedMail } from 'mailparser';
import {
  QUEUE_NAMES,
  wallTimeOf,
  type CampaignRecipient,
  type CampaignSendJob,
  type Weekday,
} from '@agency/contracts';
import {
  campaignMessageId,
  campaignReturnPath,
  createLogger,
  mailIdentityKey,
  setAgencySettingsFallback,
  mongoCampaignStore as store,
} from '@agency/platform';
import { CampaignModel } from '@agency/platform/testing/campaigns-models';
import {
  TEST_LINK_SECRET,
  TEST_SITE_URL,
  createCampaignContext,
  type CampaignContext,
} from '../testing/campaign-context';
import { createMailServerWatch } from '../mail/mail-server-watch';
import { startSmtpSink, type SmtpSink } from '../testing/smtp-sink';
import type { CampaignMessenger } from './campaign-messenger';
import {
  SEND_STATE_READ_INTERVAL_MS,
  TransientSendError,
  campaignSendProcessor,
  type BatchResult,
  type CampaignSendDeps,
} from './campaign-send.processor';
import { createCampaignTransport } from './campaign-transport';
import { campaignPaceKey, windowClosedUntil } from './campaign-pacing';
import { counterFolds, type CounterFolds } from './counter-folds';
import { RoundTracker } from './round-tracker';
import { createSmtpCampaignMessenger } from './smtp-campaign-messenger';

const KEY = mailIdentityKey(TEST_LINK_SECRET);

// As a worker process does at start: campaign mail comes from this sender until an admin saves another.
beforeAll(() => {
  setAgencySettingsFallback({
    mailFrom: 'Agency <no-reply@agency.test>',
    timeZone: 'Africa/Tunis',
  });
});

const TRY_LATER = { code: 451, message: '4.3.0 Mailbox busy, try again later' };
const NO_SUCH_USER = { code: 550, message: '5.1.1 Recipient address rejected' };

const person = (name: string, locale = 'en'): CampaignRecipient => ({
  key: `${name.toLowerCase()}@example.tn`,
  email: `${name}@example.tn`,
  firstName: name,
  lastName: '',
  locale,
});
const amira = person('Amira', 'fr');
const sami = person('Sami');
const nour = person('Nour');
const ZONE = 'Africa/Tunis';

/**
 * One batch of a campaign on its own, called as BullMQ calls it, against the
 * store, Redis and an SMTP sink: who is mailed, in waves of how many, what
 * each refusal becomes, what the ledger holds, what a replay skips, and when
 * the round ends. The campaign tests run it inside a worker, with crashes and
 * retries.
 */
describe('a campaign send batch', () => {
  let ctx: CampaignContext;
  let tracker: RoundTracker;
  let smtp: SmtpSink;
  let messenger: CampaignMessenger;
  let folds: CounterFolds;
  let inFlight: { now: number; most: number; unanswered: number[] };
  /** Runs as each mail goes out, before it is sent. */
  let onSend: (() => void | Promise<void>) | undefined;
  let send: (job: Job<CampaignSendJob>, token?: string) => Promise<BatchResult>;
  let nextSeq = 0;

  beforeAll(async () => {
    ctx = await createCampaignContext();
    tracker = new RoundTracker(ctx.redis, ctx.queuePrefix);
  });
  afterAll(async () => {
    await ctx.close();
  });

  /**
   * The SMTP messenger, watched: how many mails are out at once, and how
   * many recipients have an attempt but no outcome in Redis as each goes.
   */
  function watched(inner: CampaignMessenger, campaignKeys: () => string): CampaignMessenger {
    return {
      ...inner,
      prepare(mail) {
        const prepared = inner.prepare(mail);
        return {
          async send(recipient, messageId, returnPath) {
            inFlight.now += 1;
            inFlight.most = Math.max(inFlight.most, inFlight.now);
            const [attempts, outcomes] = await Promise.all([
              ctx.redis.hkeys(`${campaignKeys()}:attempts`),
              ctx.redis.hkeys(`${campaignKeys()}:outcomes`),
            ]);
            inFlight.unanswered.push(attempts.filter((key) => !outcomes.includes(key)).length);
            await onSend?.();
            try {
              await prepared.send(recipient, messageId, returnPath);
            } finally {
              inFlight.now -= 1;
            }
          },
        };
      },
    };
  }

  let currentId = '';
  function processor(
    waveSize: number,
    mailSlots = new Semaphore(waveSize),
    over: Partial<CampaignSendDeps> = {},
  ) {
    return campaignSendProcessor({
      store,
      tracker,
      folds,
      messenger,
      mailServer: createMailServerWatch(ctx.redis, ctx.queuePrefix, createLogger('test', 'silent')),
      mailServerRetryMs: 1000,
      mailSlots,
      waveSize,
      messageIdDomain: 'agency.test',
      identityKey: KEY,
      logger: createLogger('test', 'silent'),
      timeZone: () => Promise.resolve(ZONE),
      redis: ctx.redis,
      queuePrefix: ctx.queuePrefix,
      ...over,
    });
  }

  beforeEach(async () => {
    smtp = await startSmtpSink();
    inFlight = { now: 0, most: 0, unanswered: [] };
    onSend = undefined;
    const smtpMessenger = createSmtpCampaignMessenger({
      transport: createCampaignTransport(smtp.url, 4),
      mailFrom: 'Agency <no-reply@agency.test>',
      siteUrl: TEST_SITE_URL,
      mailLinkSecret: TEST_LINK_SECRET,
    });
    messenger = watched(smtpMessenger, () => `${ctx.queuePrefix}:campaign:${currentId}:r1`);
    // As the engine folds: in the campaign's write turn. On the embedded store two
    // writes of one document at once may lose one (the last write keeps its whole
    // document), so a fold racing the round's end could put back `sending`.
    folds = counterFolds(
      (campaign, progress) =>
        tracker.writeIfFree(campaign.id, () =>
          store.foldCounters(campaign, progress).then(() => true),
        ),
      0,
      createLogger('test', 'silent'),
    );
    send = processor(2);
  });
  const closeAfterTest: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const close of closeAfterTest.splice(0)) await close();
    folds.close();
    await messenger.close();
    await smtp.close();
  });

  /** A campaign the dispatch has started: `sending`, its round's `total` known when given. */
  async function sendingCampaign(total?: number): Promise<string> {
    const id = await ctx.queueCampaign({ addDispatch: false });
    await CampaignModel.updateOne({ _id: id }, { status: 'sending' });
    if (total !== undefined) await tracker.markDispatched(tracker.keys(id, 1), total);
    currentId = id;
    return id;
  }

  /**
   * The batch's job taken from the queue as a worker takes it: active, under
   * the worker's lock. The job talks to Redis through the taker, closed after the test.
   */
  async function activeBatch(job: Job<CampaignSendJob>) {
    const connection = ctx.redis.duplicate();
    const taker = new Worker<CampaignSendJob>(QUEUE_NAMES.campaignSend, null, {
      connection,
      prefix: ctx.queuePrefix,
      autorun: false,
    });
    closeAfterTest.push(async () => {
      await taker.close();
      connection.disconnect();
    });
    const token = `taker-${job.id}`;
    const active = (await taker.getNextJob(token)) as Job<CampaignSendJob> | undefined;
    expect(active?.id).toBe(job.id);
    return { job: active as Job<CampaignSendJob>, token };
  }

  /** A batch as the dispatch queues it: its ledger document, then its job. */
  async function batch(
    campaignId: string,
    recipients: CampaignRecipient[],
    options: { round?: number; pass?: number; attempts?: number; settled?: number[] } = {},
  ) {
    const round = options.round ?? 1;
    const seq = nextSeq++;
    await store.addBatches(campaignId, round, [{ seq, recipients }]);
    return ctx.sendQueue.add(
      QUEUE_NAMES.campaignSend,
      {
        campaignId,
        round,
        pass: options.pass ?? 1,
        seq,
        recipients,
        ...(options.settled ? { settled: options.settled } : {}),
      },
      // Last in, first out: a test that takes its batch from the queue takes this one.
      { attempts: options.attempts ?? 3, lifo: true },
    );
  }

  const refuse = (address: string, refusal: typeof TRY_LATER) =>
    smtp.setResponder((mail: ParsedMail) =>
      JSON.stringify(mail.to).toLowerCase().includes(address) ? refusal : undefined,
    );

  const ledgerOf = async (id: string) =>
    (await ctx.ledger(id)).map(({ email, state, attempts, reason }) => ({
      email,
      state,
      attempts,
      ...(reason ? { reason } : {}),
    }));

  const settle = async () => {
    for (;;) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      if (!folds.busy()) return;
    }
  };

  it('mails each recipient, personalised, and writes every outcome into the batch’s ledger document', async () => {
    const id = await sendingCampaign();

    expect(await send(await batch(id, [amira, sami]))).toBe('done');

    expect(smtp.received.map(({ envelopeTo }) => envelopeTo).sort()).toEqual(
      [[amira.email], [sami.email]].sort(),
    );
    const toAmira = smtp.received.find(({ envelopeTo }) => envelopeTo[0] === amira.email)?.mail;
    expect(toAmira?.subject).toBe('Hello Amira');
    // Written in English alone: her French falls back to the campaign's language, footer too.
    expect(toAmira?.html).toContain('<html lang="en" dir="ltr">');
    expect(toAmira?.html).toContain('Unsubscribe');
    // The template's header names the sender, as MAIL_FROM does.
    expect(toAmira?.html).toMatch(/<h1[^>]*>Agency<\/h1>/);
    expect(toAmira?.messageId).toBe(campaignMessageId(KEY, id, 1, amira.key, 'agency.test'));
    expect(await ledgerOf(id)).toEqual([
      { email: amira.email, state: 'sent', attempts: 1 },
      { email: sami.email, state: 'sent', attempts: 1 },
    ]);
    // The round is not dispatched yet: the counters are folded in, the campaign goes on.
    await settle();
    expect(await ctx.campaign(id)).toMatchObject({ status: 'sending', sentCount: 2 });
  });

  it('folds the sent count into the campaign after each wave, before the batch ends', async () => {
    const id = await sendingCampaign(3);
    /** The campaign's sent count once it reaches `count`, or as it stands after two seconds. */
    const sentCountOnceAt = async (count: number) => {
      const until = Date.now() + 2000;
      for (;;) {
        const { sentCount } = (await ctx.campaign(id)) as { sentCount: number };
        if (sentCount >= count || Date.now() > until) return sentCount;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    };
    let seenAsLastGoes = -1;
    const lookingBeforeLast: CampaignMessenger = {
      ...messenger,
      prepare(mail) {
        const prepared = messenger.prepare(mail);
        return {
          async send(recipient, messageId, returnPath) {
            if (recipient.email === nour.email) seenAsLastGoes = await sentCountOnceAt(2);
            await prepared.send(recipient, messageId, returnPath);
          },
        };
      },
    };
    const oneByOne = processor(1, undefined, { messenger: lookingBeforeLast });

    expect(await oneByOne(await batch(id, [amira, sami, nour]))).toBe('done');

    expect(seenAsLastGoes).toBe(2);
  });

  it('has at most a wave of mails in flight, each noted in Redis before it goes', async () => {
    const id = await sendingCampaign();
    const five = ['Leila', 'Karim', 'Nour', 'Youssef', 'Hela'].map((name) => person(name));

    expect(await send(await batch(id, five))).toBe('done');

    expect(smtp.received).toHaveLength(5);
    expect(inFlight.most).toBe(2);
    // Each mail saw its own attempt noted; never more unanswered than the wave.
    expect(inFlight.unanswered).toHaveLength(5);
    for (const unanswered of inFlight.unanswered) {
      expect(unanswered).toBeGreaterThanOrEqual(1);
      expect(unanswered).toBeLessThanOrEqual(2);
    }
    const waveOfFive = processor(5);
    inFlight.most = 0;
    expect(
      await waveOfFive(
        await batch(
          id,
          ['A', 'B', 'C', 'D', 'E'].map((name) => person(name)),
        ),
      ),
    ).toBe('done');
    expect(inFlight.most).toBeGreaterThan(2);
  });

  it("shares the worker's mails in flight between its batches: never more unanswered than its slots", async () => {
    const id = await sendingCampaign();
    const shared = processor(2, new Semaphore(2));
    const names = ['Leila', 'Karim', 'Nour', 'Youssef', 'Hela', 'Omar', 'Rim', 'Tarek'];
    const [first, second] = [names.slice(0, 4), names.slice(4)].map((group) =>
      group.map((name) => person(name)),
    );

    const results = await Promise.all([
      shared(await batch(id, first ?? [])),
      shared(await batch(id, second ?? [])),
    ]);

    expect(results).toEqual(['done', 'done']);
    expect(smtp.received).toHaveLength(8);
    expect(inFlight.most).toBe(2);
    expect(Math.max(...inFlight.unanswered)).toBeLessThanOrEqual(2);
  });

  it('names each mail by campaign, round and recipient, the same on every attempt', () => {
    const id = 'c1';
    const first = campaignMessageId(KEY, id, 1, amira.key, 'agency.test');
    expect(first).toMatch(/^<campaign-c1-r1-k[0-9a-f]{20}@agency\.test>$/);
    expect(campaignMessageId(KEY, id, 1, amira.key, 'agency.test')).toBe(first);
    expect(campaignMessageId(KEY, id, 2, amira.key, 'agency.test')).not.toBe(first);
    expect(campaignMessageId(KEY, id, 1, sami.key, 'agency.test')).not.toBe(first);
    // Keyed: without the installation's secret, nobody writes the same digest.
    const otherKey = mailIdentityKey(`another-${TEST_LINK_SECRET}`);
    expect(campaignMessageId(otherKey, id, 1, amira.key, 'agency.test')).not.toBe(first);
  });

  it('ends the round with the batch that settles its last recipient', async () => {
    const id = await sendingCampaign(2);

    await send(await batch(id, [amira, sami]));

    const campaign = await ctx.campaign(id);
    expect(campaign).toMatchObject({ status: 'sent', sentCount: 2, failedCount: 0 });
    expect(campaign.finishedAt).toBeInstanceOf(Date);
    // The round's Redis state is kept a while for a late replay, then dropped.
    expect(await ctx.redis.ttl(tracker.keys(id, 1).counts)).toBeGreaterThan(0);
  });

  it('mails nobody twice when a batch runs again: whoever has an outcome in Redis is skipped', async () => {
    const id = await sendingCampaign();
    const keys = tracker.keys(id, 1);
    await tracker.wave(
      id,
      keys,
      [{ key: amira.key, outcome: { state: 'sent', attempts: 1 } }],
      0,
      [],
    );

    expect(await send(await batch(id, [amira, sami]))).toBe('done');

    expect(smtp.received.map(({ envelopeTo }) => envelopeTo)).toEqual([[sami.email]]);
    // The outcome Redis held reaches the ledger too: a crash came between the two.
    expect(await ledgerOf(id)).toEqual([
      { email: amira.email, state: 'sent', attempts: 1 },
      { email: sami.email, state: 'sent', attempts: 1 },
    ]);
  });

  it('goes on past whole waves of recipients answered already, mailing the rest once', async () => {
    const id = await sendingCampaign();
    const five = ['Leila', 'Karim', 'Nour', 'Youssef', 'Hela'].map((name) => person(name));
    // The first three, more than a wave of two, were answered before a crash.
    await tracker.wave(
      id,
      tracker.keys(id, 1),
      five.slice(0, 3).map(({ key }) => ({ key, outcome: { state: 'sent', attempts: 1 } })),
      0,
      [],
    );

    expect(await send(await batch(id, five))).toBe('done');

    expect(smtp.received.map(({ envelopeTo }) => envelopeTo[0]).sort()).toEqual(
      five
        .slice(3)
        .map(({ email }) => email)
        .sort(),
    );
    expect((await ledgerOf(id)).map(({ state }) => state)).toEqual(Array(5).fill('sent'));
  });

  it('mails nobody the ledger already has an outcome for (a batch queued again from it)', async () => {
    const id = await sendingCampaign();
    const job = await batch(id, [amira, sami], { settled: [0] });
    const sentBefore = { state: 'sent', attempts: 1 } as const;
    await store.recordOutcomes(id, 1, job.data.seq, [
      { position: 0, email: amira.email, outcome: sentBefore },
    ]);

    expect(await send(job)).toBe('done');

    expect(smtp.received.map(({ envelopeTo }) => envelopeTo)).toEqual([[sami.email]]);
    // The ledger's outcome stays; the batch adds its own.
    expect(await ledgerOf(id)).toEqual([
      { email: amira.email, state: 'sent', attempts: 1 },
      { email: sami.email, state: 'sent', attempts: 1 },
    ]);
  });

  it('sends nothing for a campaign no longer sending, for another round or for an older pass', async () => {
    const paused = await sendingCampaign();
    await CampaignModel.updateOne({ _id: paused }, { status: 'paused' });
    const resent = await sendingCampaign();
    await CampaignModel.updateOne({ _id: resent }, { round: 2 });
    const resumed = await sendingCampaign();
    await CampaignModel.updateOne({ _id: resumed }, { pass: 2 });

    expect(await send(await batch(paused, [amira]))).toBe('skipped');
    expect(await send(await batch(resent, [amira], { round: 1 }))).toBe('skipped');
    expect(await send(await batch(resumed, [amira], { pass: 1 }))).toBe('skipped');

    expect(smtp.received).toEqual([]);
    expect((await ledgerOf(paused)).map(({ state }) => state)).toEqual(['pending']);
    expect(await ctx.redis.exists(tracker.keys(paused, 1).attempts)).toBe(0);
  });

  it('leaves a passing refusal to the retries, recording everyone else', async () => {
    const id = await sendingCampaign();
    refuse(sami.key, TRY_LATER);

    const run = send(await batch(id, [amira, sami], { attempts: 3 }));

    await expect(run).rejects.toThrow(TransientSendError);
    await expect(run).rejects.toThrow(
      '1 of 2 mails not accepted yet: 451 4.3.0 Mailbox busy, try again later',
    );
    expect(await ledgerOf(id)).toEqual([
      { email: amira.email, state: 'sent', attempts: 1 },
      { email: sami.email, state: 'pending', attempts: undefined },
    ]);
    await settle();
    expect(await ctx.campaign(id)).toMatchObject({ sentCount: 1, failedCount: 0 });
  });

  it('records a passing refusal as failed on the last attempt, with the reason', async () => {
    const id = await sendingCampaign(2);
    refuse(sami.key, TRY_LATER);

    expect(await send(await batch(id, [amira, sami], { attempts: 1 }))).toBe('done');

    expect(await ledgerOf(id)).toEqual([
      { email: amira.email, state: 'sent', attempts: 1 },
      {
        email: sami.email,
        state: 'failed',
        attempts: 1,
        reason: '451 4.3.0 Mailbox busy, try again later',
      },
    ]);
    expect(await ctx.campaign(id)).toMatchObject({ status: 'sent', sentCount: 1, failedCount: 1 });
  });

  it('records a refusal for good as failed at once, without a retry', async () => {
    const id = await sendingCampaign(1);
    refuse(amira.key, NO_SUCH_USER);

    expect(await send(await batch(id, [amira], { attempts: 3 }))).toBe('done');

    expect(await ledgerOf(id)).toEqual([
      {
        email: amira.email,
        state: 'failed',
        attempts: 1,
        reason: '550 5.1.1 Recipient address rejected',
      },
    ]);
    // Nobody received it: the campaign failed.
    expect(await ctx.campaign(id)).toMatchObject({ status: 'failed', failedCount: 1 });
  });

  it('records an address that is not one mailbox as failed, and mails nobody for it', async () => {
    const id = await sendingCampaign(2);
    const forged = { ...person('Mallory'), email: 'mallory@example.tn\r\nBcc: spy@evil.example' };

    expect(await send(await batch(id, [forged, sami], { attempts: 3 }))).toBe('done');

    expect(smtp.received.map(({ envelopeTo }) => envelopeTo)).toEqual([[sami.email]]);
    const [line] = await ledgerOf(id);
    expect(line).toMatchObject({ state: 'failed', attempts: 1 });
    expect(line?.reason).toMatch(/not a single mailbox/);
  });

  it('records a malformed address stored before the address rule as failed, and mails nobody for it', async () => {
    const id = await sendingCampaign(2);
    const stored = { ...person('Legacy'), email: 'legacy.@example.tn' };

    expect(await send(await batch(id, [stored, sami], { attempts: 3 }))).toBe('done');

    expect(smtp.received.map(({ envelopeTo }) => envelopeTo)).toEqual([[sami.email]]);
    const [line] = await ledgerOf(id);
    expect(line).toMatchObject({ email: stored.email, state: 'failed', attempts: 1 });
    expect(line?.reason).toMatch(/not a valid address/);
  });

  it('prepares the mail once per send: the counters written after a batch do not rebuild it', async () => {
    const id = await sendingCampaign();
    const karim = person('Karim');
    await send(await batch(id, [sami]));
    await settle();
    const folded = await ctx.campaign(id);
    await send(await batch(id, [karim]));

    // The first batch's counters moved updatedAt; the second mail still came from the same frame.
    expect(folded?.updatedAt).not.toEqual(folded?.createdAt);
    const boundaries = smtp.received.map(({ mail }) => boundaryOf(mail));
    expect(boundaries[0]).toEqual(expect.any(String));
    expect(boundaries).toEqual([boundaries[0], boundaries[0]]);
  });

  it('keeps the prepared mail of at most 21 campaigns, then prepares afresh', async () => {
    const reads: string[] = [];
    const counting = processor(2, undefined, {
      store: {
        ...store,
        mail(campaignId) {
          reads.push(campaignId);
          return store.mail(campaignId);
        },
      },
    });
    const ids: string[] = [];
    for (let index = 0; index < 22; index++) ids.push(await sendingCampaign());
    const [first = '', ...others] = ids;
    const last = others.pop() ?? '';

    for (const id of [first, ...others, first])
      expect(await counting(await batch(id, []))).toBe('done');
    // 21 campaigns: the first one's mail was still at hand.
    expect(reads).toEqual([first, ...others]);

    await counting(await batch(last, []));
    await counting(await batch(first, []));
    expect(reads).toEqual([first, ...others, last, first]);
    await settle();
  });

  it('sends the campaign as it is now once it was queued again since the last batch', async () => {
    const id = await sendingCampaign();
    await send(await batch(id, [amira]));
    // The batch's counters are written first: the embedded store would lose one of two writes at once.
    await settle();
    // Queued again (a resume, a resend): the prepared mail of the first batch may be stale.
    await CampaignModel.updateOne(
      { _id: id },
      { subject: 'Bonjour {{firstName}}', queuedAt: new Date(Date.now() + 60_000) },
      { timestamps: false },
    );

    await send(await batch(id, [sami]));

    expect(smtp.received.map(({ mail }) => mail.subject)).toEqual(['Hello Amira', 'Bonjour Sami']);
  });

  it('fills in each recipient’s last name, none after a first name for one who gave none', async () => {
    const id = await sendingCampaign();
    await CampaignModel.updateOne(
      { _id: id },
      { subject: 'Hello {{firstName}} {{lastName}}!', content: '<p>Dear {{lastName}}.</p>' },
    );
    const hela: CampaignRecipient = {
      key: 'hela@example.tn',
      email: 'Hela@example.tn',
      firstName: 'Hela',
      locale: 'en',
    };

    const karim = { ...person('Karim'), lastName: 'Ben Ali' };

    expect(await send(await batch(id, [hela, karim]))).toBe('done');

    const to = (email: string) =>
      smtp.received.find(({ envelopeTo }) => envelopeTo[0] === email)?.mail;
    expect(to(hela.email)?.subject).toBe('Hello Hela !');
    // Alone, a missing last name says the campaign's default fallback rather than leave a hole.
    expect(to(hela.email)?.html).toContain('Dear there.');
    expect(to(karim.email)?.subject).toBe('Hello Karim Ben Ali!');
    expect(to(karim.email)?.html).toContain('Dear Ben Ali.');
  });

  it('greets a recipient without a first name with the fallback of their language', async () => {
    const id = await sendingCampaign();
    await CampaignModel.updateOne(
      { _id: id },
      {
        subject: 'Quick update for {{firstName|our reader}}',
        content: '<p>Dear {{firstName}},</p>',
        translations: [
          { locale: 'fr', subject: 'Des nouvelles', content: '<p>Bonjour {{firstName}},</p>' },
          { locale: 'ar', subject: 'أخبار', content: '<p>مرحبًا {{firstName}}،</p>' },
        ],
        placeholderFallbacks: { ar: 'عزيزنا' },
      },
    );
    const nameless = (name: string, locale: string) => ({ ...person(name, locale), firstName: '' });

    const recipients = [nameless('En', 'en'), nameless('Fr', 'fr'), nameless('Ar', 'ar')];
    expect(await send(await batch(id, recipients))).toBe('done');

    const mailTo = (name: string) =>
      smtp.received.find(({ envelopeTo }) => envelopeTo[0] === `${name}@example.tn`)?.mail;
    expect(mailTo('En')?.subject).toBe('Quick update for our reader');
    expect(mailTo('En')?.html).toContain('Dear there,');
    expect(mailTo('En')?.text).toContain('Dear there,');
    expect(mailTo('Fr')?.html).toContain('Bonjour à vous,');
    expect(mailTo('Fr')?.text).toContain('Bonjour à vous,');
    // The campaign's own default for Arabic, not the shipped one.
    expect(mailTo('Ar')?.html).toContain('مرحبًا عزيزنا،');
  });

  it('has bounces come back to an address of their own per recipient, when one is set', async () => {
    const id = await sendingCampaign();
    const withReturnPath = processor(2, undefined, { returnPath: 'bounces@agency.test' });

    expect(await withReturnPath(await batch(id, [amira, sami]))).toBe('done');

    const fromOf = (email: string) =>
      smtp.received.find(({ envelopeTo }) => envelopeTo[0] === email)?.envelopeFrom;
    expect(fromOf(amira.email)).toBe(
      campaignReturnPath(KEY, 'bounces@agency.test', id, 1, amira.key),
    );
    expect(fromOf(sami.email)).toBe(
      campaignReturnPath(KEY, 'bounces@agency.test', id, 1, sami.key),
    );
    expect(fromOf(amira.email)).not.toBe(fromOf(sami.email));
    // Without one, bounces go to the sender.
    await send(await batch(id, [nour]));
    expect(fromOf(nour.email)).toBe('no-reply@agency.test');
  });

  it('sends nothing for a campaign deleted before its batch runs', async () => {
    const id = await sendingCampaign(1);
    const job = await batch(id, [amira]);
    await CampaignModel.deleteOne({ _id: id });

    expect(await send(job)).toBe('skipped');

    expect(smtp.received).toEqual([]);
  });

  it('sends a campaign stored without the time it was queued, its mail prepared once', async () => {
    const id = await sendingCampaign();
    await CampaignModel.collection.updateOne(
      { _id: new Types.ObjectId(id) },
      { $unset: { queuedAt: '' } },
    );

    expect(await send(await batch(id, [amira]))).toBe('done');
    expect(await send(await batch(id, [sami]))).toBe('done');

    const boundaries = smtp.received.map(({ mail }) => boundaryOf(mail));
    expect(boundaries).toEqual([expect.any(String), boundaries[0]]);
    await settle();
  });

  it('sends nothing for a campaign deleted between the reads of its state and of its mail', async () => {
    const id = await sendingCampaign(1);
    const deletedMeanwhile = processor(2, undefined, {
      store: {
        ...store,
        async mail(campaignId) {
          await CampaignModel.deleteOne({ _id: campaignId });
          return store.mail(campaignId);
        },
      },
    });

    expect(await deletedMeanwhile(await batch(id, [amira]))).toBe('skipped');

    expect(smtp.received).toEqual([]);
    expect(await ctx.redis.exists(tracker.keys(id, 1).attempts)).toBe(0);
  });

  it("shares its reads of the campaign's state between a worker's batches: about one a second for them all", async () => {
    const batches = [0, 1, 2].map((group) =>
      Array.from({ length: 16 }, (_, index) => person(`Shared${group}x${index}`)),
    );
    const id = await sendingCampaign(48);
    let reads = 0;
    // Three batches at once, each a mail at a time, each mail 150 ms: about 2.5 s each.
    const worker = processor(1, new Semaphore(3), {
      store: {
        ...store,
        sendState(campaignId) {
          reads += 1;
          return store.sendState(campaignId);
        },
      },
    });
    onSend = () => new Promise((resolve) => setTimeout(resolve, 150));
    const jobs = await Promise.all(batches.map((recipients) => batch(id, recipients)));
    const started = Date.now();

    expect(await Promise.all(jobs.map((job) => worker(job)))).toEqual(['done', 'done', 'done']);

    const seconds = (Date.now() - started) / SEND_STATE_READ_INTERVAL_MS;
    expect(seconds).toBeGreaterThan(2);
    // Each batch starts on a read of its own; alone, each would read again every second.
    expect(reads - batches.length).toBeLessThanOrEqual(Math.ceil(seconds) + 1);
    expect(smtp.received).toHaveLength(48);
  });

  describe("a campaign's own pace and window", () => {
    /** Everything but the date stays real: the stores, Redis and SMTP answer in their own time. */
    const realClock = [
      'hrtime',
      'nextTick',
      'performance',
      'queueMicrotask',
      'setImmediate',
      'clearImmediate',
      'setInterval',
      'clearInterval',
      'setTimeout',
      'clearTimeout',
    ] as const;

    it('sends at its own pace, one mail as each comes due', async () => {
      const id = await sendingCampaign(2);
      // 30 a minute: one mail, then the next two seconds later.
      await CampaignModel.updateOne({ _id: id }, { ratePerMinute: 30 });
      let reads = 0;
      const paced = processor(2, undefined, {
        store: {
          ...store,
          sendState(campaignId) {
            reads += 1;
            return store.sendState(campaignId);
          },
        },
      });

      expect(await paced(await batch(id, [amira, sami]))).toBe('done');

      const [first, second] = smtp.received.map(({ receivedAt }) => receivedAt);
      expect((second ?? 0) - (first ?? 0)).toBeGreaterThanOrEqual(1000);
      expect(await ctx.redis.exists(campaignPaceKey(ctx.queuePrefix, id))).toBe(1);
      expect(await ctx.campaign(id)).toMatchObject({ status: 'sent', sentCount: 2 });
      // The campaign is read as the batch starts, then once after its wait: not while it waits.
      expect(reads).toBe(2);
    });

    it('moves the sent count with each wave while a slow batch is still sending', async () => {
      const id = await sendingCampaign(4);
      // 120 a minute: a mail every half second, so the batch takes two seconds.
      await CampaignModel.updateOne({ _id: id }, { ratePerMinute: 120 });
      const carol = person('Carol');

      const run = processor(1)(await batch(id, [amira, sami, nour, carol]));
      await smtp.waitForCount(3);
      await settle();

      // Two outcomes are written when the third mail goes: the campaign shows them already.
      const midway = await ctx.campaign(id);
      expect(midway.sentCount).toBeGreaterThanOrEqual(2);
      expect(midway.status).toBe('sending');
      expect(await run).toBe('done');
      expect(await ctx.campaign(id)).toMatchObject({ status: 'sent', sentCount: 4 });
    });

    it('takes from its pace only the mails it has to send', async () => {
      const id = await sendingCampaign(1);
      // 600 a minute: a mail every 100 ms, up to ten at once.
      await CampaignModel.updateOne({ _id: id }, { ratePerMinute: 600 });
      const before = Date.now();

      expect(await processor(10)(await batch(id, [amira]))).toBe('done');

      const after = Date.now();
      // One mail taken: the next is due 100 ms after it, not a wave's worth later.
      const due = Number(await ctx.redis.get(campaignPaceKey(ctx.queuePrefix, id)));
      expect(due).toBeGreaterThanOrEqual(before + 100);
      expect(due).toBeLessThanOrEqual(after + 100);
    });

    it('ends a batch waiting for its pace once the campaign is paused, its outcomes written', async () => {
      const id = await sendingCampaign(3);
      // 60 a minute: one mail, then a second's wait for the next.
      await CampaignModel.updateOne({ _id: id }, { ratePerMinute: 60 });
      // The pause is written while the first mail goes, so it is stored before
      // the wait begins however slow the store is (a loaded store once took
      // longer than the wait to write it).
      onSend = async () => {
        await CampaignModel.updateOne({ _id: id }, { status: 'paused' });
      };

      expect(await send(await batch(id, [amira, sami, nour]))).toBe('skipped');
      expect(smtp.received.map(({ envelopeTo }) => envelopeTo)).toEqual([[amira.email]]);
      expect(await ledgerOf(id)).toEqual([
        { email: amira.email, state: 'sent', attempts: 1 },
        { email: sami.email, state: 'pending', attempts: undefined },
        { email: nour.email, state: 'pending', attempts: undefined },
      ]);
      // Its outcome reached Redis before the batch gave its slots back.
      expect(await ctx.redis.hgetall(tracker.keys(id, 1).outcomes)).toEqual({ [amira.key]: 's' });
      expect(await ctx.redis.hkeys(tracker.keys(id, 1).attempts)).toEqual([amira.key]);
    });

    it('ends a batch whose pace keeps granting within about a second of a cancel, its outcomes written', async () => {
      const recipients = Array.from({ length: 30 }, (_, index) => person(`Paced${index}`));
      const id = await sendingCampaign(recipients.length);
      // 600 a minute, one mail at a time, each taking 150 ms: the pace has
      // always granted the next mail by the time it is asked, so the batch
      // never waits for it.
      await CampaignModel.updateOne({ _id: id }, { ratePerMinute: 600 });
      let cancelledAt = 0;
      onSend = async () => {
        await new Promise((resolve) => setTimeout(resolve, 150));
        if (cancelledAt === 0 && smtp.received.length === 2) {
          await CampaignModel.updateOne({ _id: id }, { status: 'cancelled' });
          cancelledAt = Date.now();
        }
      };

      expect(await processor(1)(await batch(id, recipients))).toBe('skipped');

      const sentAfterCancel = smtp.received.filter(({ receivedAt }) => receivedAt > cancelledAt);
      // Read again within SEND_STATE_READ_INTERVAL_MS: a second of mails at most, never all 30.
      expect(sentAfterCancel.length).toBeLessThanOrEqual(
        Math.ceil(SEND_STATE_READ_INTERVAL_MS / 150) + 1,
      );
      const ledger = await ledgerOf(id);
      expect(ledger.filter(({ state }) => state === 'sent')).toHaveLength(smtp.received.length);
      expect(ledger.filter(({ state }) => state === 'pending').length).toBeGreaterThan(15);
    });

    it('stops at the wave its window closes, what is left waiting for the next opening', async () => {
      // Wednesday 25 November 2026, a second before 11:00 in Tunis; the window shuts at 11:00.
      jest.useFakeTimers({ doNotFake: [...realClock], now: new Date('2026-11-25T09:59:59Z') });
      try {
        const id = await sendingCampaign(3);
        await CampaignModel.updateOne(
          { _id: id },
          { sendingWindow: { days: [3], start: '08:00', end: '11:00' } },
        );
        const { job, token } = await activeBatch(await batch(id, [amira, sami, nour]));
        // The first wave goes out as the clock passes 11:00.
        onSend = () => jest.setSystemTime(new Date('2026-11-25T10:00:01Z'));

        await expect(send(job, token)).rejects.toThrow(DelayedError);

        expect(smtp.received.map(({ envelopeTo }) => envelopeTo[0]).sort()).toEqual(
          [amira.email, sami.email].sort(),
        );
        expect(await ledgerOf(id)).toEqual([
          { email: amira.email, state: 'sent', attempts: 1 },
          { email: sami.email, state: 'sent', attempts: 1 },
          { email: nour.email, state: 'pending', attempts: undefined },
        ]);
        expect(await ctx.redis.hkeys(tracker.keys(id, 1).attempts)).not.toContain(nour.key);
        expect(await job.getState()).toBe('delayed');
        const score = await ctx.redis.zscore(
          `${ctx.queuePrefix}:${QUEUE_NAMES.campaignSend}:delayed`,
          job.id ?? '',
        );
        // The next Wednesday, 08:00 in Tunis.
        expect(Math.floor(Number(score) / 0x1000)).toBe(Date.parse('2026-12-02T07:00:00Z'));
      } finally {
        jest.useRealTimers();
      }
    });

    it('is done when its last wave goes out as its window closes', async () => {
      // As above: the window shuts at 11:00 in Tunis as the only wave goes out.
      jest.useFakeTimers({ doNotFake: [...realClock], now: new Date('2026-11-25T09:59:59Z') });
      try {
        const id = await sendingCampaign(2);
        await CampaignModel.updateOne(
          { _id: id },
          { sendingWindow: { days: [3], start: '08:00', end: '11:00' } },
        );
        onSend = () => jest.setSystemTime(new Date('2026-11-25T10:00:01Z'));

        expect(await send(await batch(id, [amira, sami]))).toBe('done');

        expect(smtp.received).toHaveLength(2);
        expect(await ctx.campaign(id)).toMatchObject({ status: 'sent', sentCount: 2 });
      } finally {
        jest.useRealTimers();
      }
    });

    it('waits in the delayed set until its window opens, mailing nobody meanwhile', async () => {
      const id = await sendingCampaign(2);
      // Open on another day of the week only: closed now.
      const today = wallTimeOf(new Date(), ZONE).weekday;
      const sendingWindow = { days: [((today + 3) % 7) as Weekday], start: '08:00', end: '20:00' };
      await CampaignModel.updateOne({ _id: id }, { sendingWindow });
      const opensAt = windowClosedUntil({ sendingWindow }, ZONE);
      const { job, token } = await activeBatch(await batch(id, [amira, sami]));
      let mailReads = 0;
      const waiting = processor(2, undefined, {
        store: {
          ...store,
          mail(campaignId) {
            mailReads += 1;
            return store.mail(campaignId);
          },
        },
      });

      await expect(waiting(job, token)).rejects.toThrow(DelayedError);

      expect(await job.getState()).toBe('delayed');
      const score = await ctx.redis.zscore(
        `${ctx.queuePrefix}:${QUEUE_NAMES.campaignSend}:delayed`,
        job.id ?? '',
      );
      // BullMQ keeps a delayed job's due time as its score × 4096 (plus a counter).
      expect(Math.abs(Math.floor(Number(score) / 0x1000) - (opensAt?.getTime() ?? 0))).toBeLessThan(
        1000,
      );
      expect(smtp.received).toEqual([]);
      expect(await ctx.redis.exists(tracker.keys(id, 1).attempts)).toBe(0);
      expect(await ctx.campaign(id)).toMatchObject({ status: 'sending', sentCount: 0 });
      // Not even its mail is read until the window opens.
      expect(mailReads).toBe(0);
    });
  });
});

/** The multipart boundary of a received mail: one per compiled campaign frame. */
function boundaryOf(mail: ParsedMail): unknown {
  const contentType = mail.headers.get('content-type') as { params?: { boundary?: string } };
  return contentType.params?.boundary;
}
