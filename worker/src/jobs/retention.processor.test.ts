import { randomUUID } from 'node:crypto';
import { pino } from 'pino';
import { Worker, type Processor, type QueueEvents } from 'bullmq';
import { QUEUE_NAMES, type QueueName, type RetentionSettings } from '@agency/contracts';
import {
  confirmPendingSubscriber,
  contactMailAddresses,
  contactIndexKeys,
  createKeptCounts,
  createRedisConnection,
  readAgencySettings,
  readRetentionReport,
  reconcileStats,
  refreshPeople,
  requestSubscription,
  saveAgencySettings,
  statsKeys,
  storeContact,
  UNWATCHED_SUBSCRIBERS,
  type ContactChanges,
  type KeptCounts,
  type Redis,
} from '@agency/platform';
import { ActivityLogModel } from '@agency/platform/testing/activity-models';
import { PersonModel, SubscriberModel } from '@agency/platform/testing/audience-models';
import { ContactAddressModel, ContactModel } from '@agency/platform/testing/contact-models';
import { MailReceiptModel, OwedMailModel } from '@agency/platform/testing/outbox-models';
import { withStoreWorkarounds } from '@agency/platform/testing/store-workarounds';
import type { ScheduledJob } from '../job-schedulers';
import { createPipelineContext, type PipelineContext } from '../testing/pipeline-context';
import { retentionContactChanges, runRetention, startRetention } from './retention.processor';

const DAY_MS = 86_400_000;
const silent = pino({ level: 'silent' });

describe('the retention rules', () => {
  let ctx: PipelineContext;
  let connection: Redis;
  let kept: KeptCounts;
  let changes: ContactChanges;
  let prefix: string;

  beforeAll(async () => {
    ctx = await createPipelineContext();
    connection = createRedisConnection(ctx.config.redisUrl, 'consumer');
  });
  afterAll(async () => {
    connection.disconnect();
    await ctx.close();
  });
  // The list's index in Redis is kept (as on the embedded store), so that its search entries are checked too.
  withStoreWorkarounds({ contactsIndexInRedis: true });
  beforeEach(async () => {
    prefix = `retention-${randomUUID()}`;
    kept = createKeptCounts(connection, { prefix, timeZone: 'UTC', logger: silent });
    changes = retentionContactChanges({
      connection,
      queuePrefix: prefix,
      logger: silent,
      keptContactChanges: kept.contactChanges,
    });
    await Promise.all([
      SubscriberModel.deleteMany({}),
      ContactModel.deleteMany({}),
      ContactAddressModel.deleteMany({}),
      ActivityLogModel.deleteMany({}),
      OwedMailModel.deleteMany({}),
      MailReceiptModel.deleteMany({}),
    ]);
    await setRetention({ enquiryMonths: null, activityMonths: 24 });
  });

  async function setRetention(retention: RetentionSettings) {
    await saveAgencySettings({ ...(await readAgencySettings()), retention }, 'admin');
  }

  const pass = (now: Date, pageSize?: number) =>
    runRetention({ logger: silent, contactChanges: changes, pageSize }, now);

  const signUp = (email: string, at: Date) =>
    requestSubscription(
      { email, locale: 'fr', source: 'newsletter-banner', ip: '203.0.113.9', at },
      kept.subscriberChanges,
    );

  describe('unconfirmed sign-ups', () => {
    it('deletes one left unconfirmed 8 days with its owed mail, and keeps a newer one and the confirmed', async () => {
      const start = new Date();
      const stale = await signUp('stale@example.com', start);
      if (!stale) throw new Error('the sign-up owes no mail');
      await signUp('recent@example.com', new Date(start.getTime() + 2 * DAY_MS));
      await signUp('confirmed@example.com', start);
      const confirming = await SubscriberModel.findOne({ email: 'confirmed@example.com' });
      if (!confirming) throw new Error('no sign-up to confirm');
      await confirmPendingSubscriber(
        confirming,
        { ip: '203.0.113.9', now: start },
        UNWATCHED_SUBSCRIBERS,
      );
      expect(await OwedMailModel.countDocuments({ subscriberId: stale.subscriberId })).toBe(1);

      const report = await pass(new Date(start.getTime() + 8 * DAY_MS));

      expect(report.unconfirmedSignups).toBe(1);
      const left = await SubscriberModel.find({}, { email: 1 }).sort({ email: 1 }).lean();
      expect(left.map(({ email }) => email)).toEqual([
        'confirmed@example.com',
        'recent@example.com',
      ]);
      expect(await OwedMailModel.countDocuments({ subscriberId: stale.subscriberId })).toBe(0);
      // The figures' per-address status of the deleted sign-up goes at the next reconciliation.
      const statuses = statsKeys(prefix, 'UTC').subscriberStatus;
      expect(await connection.hget(statuses, 'stale@example.com')).toBe('pending');
      await reconcileStats({
        redis: connection,
        prefix,
        timeZone: 'UTC',
        settleMs: 0,
        logger: silent,
      });
      expect(await connection.hget(statuses, 'stale@example.com')).toBeNull();
      expect(await connection.hget(statuses, 'recent@example.com')).toBe('pending');
      // The confirmed address's mails are its own business.
      expect(await OwedMailModel.countDocuments({ subscriberId: String(confirming._id) })).toBe(1);
    });

    it('keeps a sign-up that asked again within the 7 days', async () => {
      const start = new Date();
      await signUp('again@example.com', start);
      await signUp('again@example.com', new Date(start.getTime() + 3 * DAY_MS));

      expect((await pass(new Date(start.getTime() + 8 * DAY_MS))).unconfirmedSignups).toBe(0);
      expect(await SubscriberModel.countDocuments({ email: 'again@example.com' })).toBe(1);
    });
  });

  describe('enquiries', () => {
    const enquiry = (email: string) =>
      storeContact(
        {
          firstName: 'Amira',
          lastName: 'Ben Salah',
          email,
          phone: '+216 20 000 000',
          service: 'web-design',
          message: 'We need a new site for our bakery.',
        },
        'fr',
        changes,
      );
    const thirteenMonthsOn = () => new Date(Date.now() + 396 * DAY_MS);

    async function searchEntries(): Promise<string[]> {
      return connection.zrange(contactIndexKeys(prefix).search, 0, -1);
    }

    it('anonymises those older than the months set, keeping the figures and nothing personal', async () => {
      const { id } = await enquiry('amira@example.com');
      await ContactModel.updateOne(
        { _id: id },
        { $set: { consent: { newsletter: true, at: new Date(), ip: '203.0.113.9' } } },
        { strict: false },
      );
      const figuresBefore = await kept.counts();
      expect(await searchEntries()).not.toEqual([]);
      await refreshPeople(['amira@example.com']);
      expect(await PersonModel.findById('amira@example.com').lean()).not.toBeNull();
      await setRetention({ enquiryMonths: 12, activityMonths: 24 });

      const report = await pass(thirteenMonthsOn());

      expect(report.anonymisedEnquiries).toBe(1);
      const stored = await ContactModel.collection.findOne({});
      expect(stored).toMatchObject({
        firstName: '',
        lastName: '',
        email: '',
        message: '',
        service: 'web-design',
        status: 'new',
        locale: 'fr',
        consent: { newsletter: true },
      });
      expect(stored?.anonymisedAt).toBeInstanceOf(Date);
      const text = JSON.stringify(stored);
      for (const personal of ['Amira', 'amira@', '216', 'bakery', '203.0.113.9', 'searchTerms']) {
        expect(text).not.toContain(personal);
      }
      // Not mailed by a campaign, not found by the search, gone from the outbox.
      expect(await ContactAddressModel.countDocuments()).toBe(0);
      const audience = [];
      for await (const address of contactMailAddresses({ onlyConsented: false })) {
        audience.push(address);
      }
      expect(audience).toEqual([]);
      expect(await searchEntries()).toEqual([]);
      // Still listed, in its place.
      expect(await connection.zcard(contactIndexKeys(prefix).time)).toBe(1);
      expect(await OwedMailModel.countDocuments({ contactId: id })).toBe(0);
      // The figures count it as before; the audience reaches no one.
      const figuresAfter = await kept.counts();
      for (const field of ['contacts', 'contacts:status:new', 'contacts:service:web-design']) {
        expect(figuresAfter(field)).toBe(figuresBefore(field));
      }
      expect(await kept.audienceReach(['amira@example.com'])).toMatchObject({ contacts: 0 });
      // Nothing else held the address: its person is gone from the people screen.
      expect(await PersonModel.findById('amira@example.com').lean()).toBeNull();
    });

    it('stays out of the audience when the address copy is incomplete, and after a reconciliation', async () => {
      await enquiry('amira@example.com');
      await setRetention({ enquiryMonths: 12, activityMonths: 24 });
      await pass(thirteenMonthsOn());
      const { id } = await enquiry('sami@example.com');
      // The copy lost an address: a campaign then reads the enquiries themselves.
      await ContactAddressModel.deleteOne({ _id: id });
      const audience = [];
      for await (const address of contactMailAddresses({ onlyConsented: false }))
        audience.push(address.email);
      expect(audience).toEqual(['sami@example.com']);

      await reconcileStats({
        redis: connection,
        prefix,
        timeZone: 'UTC',
        settleMs: 0,
        logger: silent,
      });

      const copies = await ContactAddressModel.find({}, { email: 1 }).lean();
      expect(copies.map(({ email }) => email)).toEqual(['sami@example.com']);
      const figures = await kept.counts();
      expect([figures('contacts'), figures('audience:contacts')]).toEqual([2, 1]);
    });

    it('leaves newer enquiries alone, and every enquiry while the rule is off', async () => {
      await enquiry('sami@example.com');
      expect((await pass(thirteenMonthsOn())).anonymisedEnquiries).toBe(0);
      await setRetention({ enquiryMonths: 24, activityMonths: 24 });
      expect((await pass(thirteenMonthsOn())).anonymisedEnquiries).toBe(0);

      expect(await ContactModel.countDocuments({ email: 'sami@example.com' })).toBe(1);
      expect(await ContactAddressModel.countDocuments()).toBe(1);
    });

    it('anonymises more than a page of them, each once', async () => {
      for (let index = 0; index < 5; index += 1) await enquiry(`page${index}@example.com`);
      await setRetention({ enquiryMonths: 12, activityMonths: 24 });

      expect((await pass(thirteenMonthsOn(), 2)).anonymisedEnquiries).toBe(5);
      expect(await ContactModel.countDocuments({ email: '' })).toBe(5);
      expect((await pass(thirteenMonthsOn(), 2)).anonymisedEnquiries).toBe(0);
    });
  });

  describe('the activity log', () => {
    const entriesAt = (times: Date[]) =>
      ActivityLogModel.insertMany(
        times.map((time, index) => ({
          actor: null,
          action: 'client.update',
          target: { type: 'client', label: `entry ${index}` },
          time,
          ip: '127.0.0.1',
        })),
      );

    it('removes entries older than the months set, in pages, and keeps the newer', async () => {
      const now = new Date('2026-06-15T12:00:00.000Z');
      await setRetention({ enquiryMonths: null, activityMonths: 3 });
      await entriesAt([
        ...[1, 2, 3, 4, 5].map((day) => new Date(`2026-03-0${day}T12:00:00.000Z`)),
        new Date('2026-03-15T12:00:01.000Z'),
        new Date('2026-06-01T00:00:00.000Z'),
      ]);

      const report = await pass(now, 2);

      expect(report.activityEntries).toBe(5);
      const left = await ActivityLogModel.find({}, { time: 1 }).sort({ time: 1 }).lean();
      expect(left.map(({ time }) => time.toISOString())).toEqual([
        '2026-03-15T12:00:01.000Z',
        '2026-06-01T00:00:00.000Z',
      ]);
    });
  });

  it('keeps the last pass’s report for the settings screen', async () => {
    const now = new Date('2026-06-15T12:00:00.000Z');
    await ActivityLogModel.create({
      actor: null,
      action: 'client.update',
      time: new Date('2020-01-01T00:00:00.000Z'),
      ip: '127.0.0.1',
    });

    await pass(now);

    expect(await readRetentionReport()).toEqual({
      ranAt: now.toISOString(),
      unconfirmedSignups: 0,
      anonymisedEnquiries: 0,
      activityEntries: 1,
    });
  });

  describe('on the worker', () => {
    let events: QueueEvents;
    let retention: ScheduledJob | undefined;
    beforeAll(async () => {
      events = await ctx.queueEvents(QUEUE_NAMES.retention);
    });
    afterAll(async () => {
      await retention?.close();
    });

    it('runs a pass as soon as its scheduler is set', async () => {
      await ActivityLogModel.create({
        actor: null,
        action: 'client.update',
        time: new Date(Date.now() - 30 * 31 * DAY_MS),
        ip: '127.0.0.1',
      });
      const passed = new Promise((resolve) => events.once('completed', resolve));
      retention = await startRetention({
        connection,
        queuePrefix: ctx.config.queuePrefix,
        logger: silent,
        keptContactChanges: kept.contactChanges,
        startWorker: (name: QueueName, processor: Processor<Record<string, never>>, concurrency) =>
          new Worker(name, processor, { connection, prefix: ctx.config.queuePrefix, concurrency }),
      });
      await passed;

      expect(await ActivityLogModel.countDocuments()).toBe(0);
      expect(await readRetentionReport()).toMatchObject({ activityEntries: 1 });
    });
  });
});
