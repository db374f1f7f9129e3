import { QUEUE_NAMES, campaignScheduleJobId, wallTimeOf } from '@agency/contracts';
import { CampaignModel } from '@agency/platform/testing/campaigns-models';
import { campaignScheduling } from '@agency/backend';
import { Queue } from 'bullmq';
import { createCampaignContext, type CampaignContext } from '../testing/campaign-context';
import { startSmtpSink, type ReceivedMail, type SmtpSink } from '../testing/smtp-sink';
import { buildWorker, startWorkerProcess, type WorkerProcess } from '../testing/worker-process';

/**
 * What the staff write and when it goes, on real services: a campaign in
 * three languages, scheduled sends across a worker's restart, the sending
 * window and the campaign's own rate.
 */
const ZONE = 'Africa/Tunis';

let ctx: CampaignContext;
let smtp: SmtpSink;
const processes: WorkerProcess[] = [];

beforeAll(() => {
  buildWorker();
}, 180_000);

beforeEach(async () => {
  smtp = await startSmtpSink();
  ctx = await createCampaignContext();
});
afterEach(async () => {
  for (const worker of processes.splice(0)) {
    if (worker.child.exitCode === null && worker.child.signalCode === null) {
      worker.child.kill('SIGKILL');
      await worker.exited;
    }
  }
  await ctx.close();
  await smtp.close();
});

const byAddress = () => new Map(smtp.received.map((entry) => [entry.envelopeTo[0], entry]));

/** How many mails each address received, from the sink's RCPT TO. */
function deliveries(): Map<string, number> {
  const counts = new Map<string, number>();
  for (const entry of smtp.received) {
    for (const address of entry.envelopeTo) counts.set(address, (counts.get(address) ?? 0) + 1);
  }
  return counts;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The count once it has not changed for `quietMs`; fails if it still
 * changes after `limitMs`. How long a stop takes depends on the machine's
 * load; that it happens is what is checked.
 */
async function countOnceQuiet(count: () => number, quietMs: number, limitMs: number) {
  const deadline = Date.now() + limitMs;
  let seen = count();
  for (;;) {
    await sleep(quietMs);
    if (count() === seen) return seen;
    if (Date.now() > deadline) throw new Error(`still changing ${limitMs} ms later: ${count()}`);
    seen = count();
  }
}

const ARABIC = {
  locale: 'ar' as const,
  subject: 'مرحبا {{firstName}}',
  content: '<h2>عروض الربيع</h2><p>عزيزي {{firstName}}، هذه رسالتك.</p>',
};
const FRENCH = {
  locale: 'fr' as const,
  subject: 'Bonjour {{firstName}}',
  content: '<h2>Offres de printemps</h2><p>Cher {{firstName}}, voici votre message.</p>',
};

describe('a campaign in three languages to a mixed audience', () => {
  it('gives each recipient their language, and Arabic right to left in the template too', async () => {
    await ctx.seedContacts([
      { email: 'anna@example.com', firstName: 'Anna', locale: 'en' },
      { email: 'claire@example.fr', firstName: 'Claire', locale: 'fr' },
      { email: 'layla@example.tn', firstName: 'Layla', locale: 'ar' },
      // A language the campaign is not written in: the campaign's default.
      { email: 'hans@example.de', firstName: 'Hans', locale: 'de' },
    ]);
    await ctx.seedSubscribers([
      { email: 'sami@example.tn', status: 'confirmed', locale: 'ar' },
      { email: 'luc@example.fr', status: 'confirmed', locale: 'fr' },
    ]);
    await ctx.startWorker(smtp.url);
    const id = await ctx.queueCampaign({
      recipientType: 'all',
      subject: 'Hello {{firstName}}',
      content: '<h2>Spring offers</h2><p>Dear {{firstName}}, here is your mail.</p>',
      translations: [FRENCH, ARABIC],
    });
    await ctx.waitForStatus(id, ['sent']);

    const mails = byAddress();
    expect(smtp.received).toHaveLength(6);
    const expectations = [
      ['anna@example.com', 'Hello Anna', 'en', 'ltr'],
      ['hans@example.de', 'Hello Hans', 'en', 'ltr'],
      ['claire@example.fr', 'Bonjour Claire', 'fr', 'ltr'],
      ['luc@example.fr', 'Bonjour à vous', 'fr', 'ltr'],
      ['layla@example.tn', 'مرحبا Layla', 'ar', 'rtl'],
      ['sami@example.tn', 'مرحبا صديقنا', 'ar', 'rtl'],
    ] as const;
    for (const [address, subject, locale, dir] of expectations) {
      const mail = mails.get(address)?.mail;
      // Without a first name, the language's default fallback: no hole after the greeting.
      expect(mail?.subject?.trim()).toBe(subject);
      expect(mail?.html).toContain(`<html lang="${locale}" dir="${dir}">`);
      expect(mail?.html).toContain(`<body dir="${dir}"`);
      // Every mail has its plain-text part, built from its HTML.
      expect(mail?.text).toBeTruthy();
    }
    const layla = mails.get('layla@example.tn')?.mail;
    // The template's column is right to left and right aligned, not only the document.
    expect(layla?.html).toMatch(/<td dir="rtl" align="right" style="text-align:right">/);
    expect(layla?.html).toContain('عزيزي Layla، هذه رسالتك.');
    expect(layla?.html).toContain('إلغاء الاشتراك');
    expect(layla?.text).toContain('عزيزي Layla، هذه رسالتك.');
    expect(mails.get('claire@example.fr')?.mail.html).toContain('Se désabonner');
    expect(mails.get('anna@example.com')?.mail.text).toContain('Dear Anna, here is your mail.');
  });
});

describe('a scheduled campaign', () => {
  function startWorker(extra: Record<string, string> = {}): Promise<WorkerProcess> {
    return startWorkerProcess({
      MONGODB_URI: ctx.mongodbUri,
      REDIS_URL: ctx.redisUrl,
      QUEUE_PREFIX: ctx.queuePrefix,
      SMTP_URL: smtp.url,
      MAIL_TO: 'inbox@agency.test',
      AGENCY_TIME_ZONE: ZONE,
      CAMPAIGN_LOCK_SECONDS: '2',
      ...extra,
    }).then((worker) => {
      processes.push(worker);
      return worker;
    });
  }

  async function draft(): Promise<string> {
    const campaign = await CampaignModel.create({
      name: 'Scheduled',
      subject: 'Hello {{firstName}}',
      content: '<p>Dear {{firstName}}</p>',
      recipientType: 'contacts',
    });
    return String(campaign._id);
  }

  const scheduling = () =>
    campaignScheduling({ queue: ctx.controlQueue, redis: ctx.redis, prefix: ctx.queuePrefix });

  const addresses = Array.from({ length: 30 }, (_, index) => `s${index}@example.tn`);

  it('goes at its moment, and once across a worker restart over that moment', async () => {
    await ctx.seedContacts(addresses.map((email) => ({ email })));
    const first = await startWorker();
    const id = await draft();
    const at = new Date(Date.now() + 4000);
    const scheduled = await scheduling().schedule(id, at);
    expect(scheduled).toMatchObject({ status: 'scheduled', scheduledAt: at.toISOString() });

    // The worker goes down before the moment and comes back after it.
    first.child.kill('SIGKILL');
    await first.exited;
    await sleep(at.getTime() - Date.now() + 1500);
    expect(smtp.received).toHaveLength(0);
    expect((await ctx.campaign(id)).status).toBe('scheduled');

    await startWorker();
    await ctx.waitForStatus(id, ['sent'], 60_000);
    const counts = deliveries();
    expect([...counts.keys()].sort()).toEqual([...addresses].sort());
    expect(Math.max(...counts.values())).toBe(1);

    // Its time, given again (a stale delayed job, a recovery pass), starts nothing more.
    const queue = new Queue(QUEUE_NAMES.campaignSchedule, {
      connection: ctx.redis,
      prefix: ctx.queuePrefix,
    });
    await queue.add(
      QUEUE_NAMES.campaignSchedule,
      { campaignId: id, scheduledAt: at.toISOString() },
      { jobId: `${campaignScheduleJobId(id, at)}-again` },
    );
    await sleep(1500);
    await queue.close();
    expect(smtp.received).toHaveLength(addresses.length);
    expect(await ctx.campaign(id)).toMatchObject({ status: 'sent', sentCount: addresses.length });
  }, 120_000);

  it('sent by the recovery, once, when Redis lost its job while the moment passed', async () => {
    await ctx.seedContacts(addresses.map((email) => ({ email })));
    const id = await draft();
    const at = new Date(Date.now() + 2000);
    await scheduling().schedule(id, at);
    // Redis loses the delayed job (a restart without persistence).
    await ctx.controlQueue.schedule.remove(campaignScheduleJobId(id, at));
    await sleep(at.getTime() - Date.now() + 500);

    await Promise.all([
      startWorker({ CAMPAIGN_RECOVERY_INTERVAL_SECONDS: '1' }),
      startWorker({ CAMPAIGN_RECOVERY_INTERVAL_SECONDS: '1' }),
    ]);
    await ctx.waitForStatus(id, ['sent'], 60_000);
    await sleep(2500);
    const counts = deliveries();
    expect(counts.size).toBe(addresses.length);
    expect(Math.max(...counts.values())).toBe(1);
  }, 120_000);

  it('moves to another time, or back to a draft, and then does not go at the old time', async () => {
    await ctx.seedContacts(addresses.slice(0, 3).map((email) => ({ email })));
    await startWorker();
    const id = await draft();
    const first = new Date(Date.now() + 2000);
    await scheduling().schedule(id, first);
    const later = new Date(Date.now() + 3000);
    expect(await scheduling().schedule(id, later)).toMatchObject({
      status: 'scheduled',
      scheduledAt: later.toISOString(),
    });
    expect(await ctx.controlQueue.schedule.getJob(campaignScheduleJobId(id, first))).toBeFalsy();
    await ctx.waitForStatus(id, ['sent'], 30_000);
    expect(smtp.received.every(({ receivedAt }) => receivedAt >= later.getTime())).toBe(true);

    const other = await draft();
    await scheduling().schedule(other, new Date(Date.now() + 1500));
    expect(await scheduling().unschedule(other)).toMatchObject({
      status: 'draft',
      scheduledAt: null,
    });
    await sleep(3000);
    expect(await ctx.campaign(other)).toMatchObject({ status: 'draft', sentCount: 0 });
    expect(smtp.received).toHaveLength(3);
  }, 120_000);
});

/** The next whole minute on the agency's clock at least `margin` ms away. */
function nextMinute(margin: number): Date {
  const next = Math.ceil((Date.now() + margin) / 60_000) * 60_000;
  return new Date(next);
}

describe('the sending window and the rate', () => {
  it('waits for its window to open, sends in it, and pauses when it closes', async () => {
    // Two campaigns side by side, so one minute boundary shows both edges of a
    // window: the closing one is open now and closes at the boundary, the
    // opening one opens there. Windows are whole minutes on the agency's clock.
    const boundary = nextMinute(25_000);
    const thisMinute = new Date(Math.floor(Date.now() / 60_000) * 60_000);
    const [openedAt, at, after] = [thisMinute, boundary, new Date(boundary.getTime() + 60_000)].map(
      (moment) => wallTimeOf(moment, ZONE),
    );
    // Past midnight a window would have no hours: wait for another day's minute.
    expect(after?.minutes).toBeGreaterThan(openedAt?.minutes ?? Infinity);
    if (!openedAt || !at || !after) throw new Error('unreachable: three wall times');
    const contacts = Array.from({ length: 100 }, (_, index) => ({ email: `w${index}@example.tn` }));
    await ctx.seedContacts(contacts);
    const subscribers = Array.from({ length: 10 }, (_, index) => ({
      email: `o${index}@example.tn`,
      status: 'confirmed' as const,
    }));
    await ctx.seedSubscribers(subscribers);
    await ctx.startWorker(smtp.url, { timeZone: ZONE, batchSize: 10 });
    const closing = await ctx.queueCampaign({
      recipientType: 'contacts',
      subject: 'Closing',
      sendingWindow: { days: [openedAt.weekday], start: openedAt.time, end: at.time },
      // 25 to 85 s open at 60 a minute: the boundary cuts the send of 100.
      ratePerMinute: 60,
    });
    const opening = await ctx.queueCampaign({
      recipientType: 'subscribers',
      subject: 'Opening',
      sendingWindow: { days: [at.weekday], start: at.time, end: after.time },
    });
    const ofCampaign = (subject: string) => (mail: ReceivedMail) => mail.mail.subject === subject;

    await smtp.waitForCount(5, ofCampaign('Closing'), 15_000);
    await sleep(boundary.getTime() - Date.now() - 1000);
    expect(smtp.received.filter(ofCampaign('Opening'))).toHaveLength(0);
    expect(await ctx.campaign(opening)).toMatchObject({ status: 'sending' });

    const opened = await smtp.waitForCount(subscribers.length, ofCampaign('Opening'), 15_000);
    expect(Math.min(...opened.map(({ receivedAt }) => receivedAt))).toBeGreaterThanOrEqual(
      boundary.getTime(),
    );

    await sleep(boundary.getTime() - Date.now() + 4000);
    const sentInWindow = smtp.received.filter(ofCampaign('Closing'));
    expect(sentInWindow.length).toBeGreaterThanOrEqual(15);
    expect(sentInWindow.length).toBeLessThan(contacts.length);
    // Nothing after the close, but what a wave had already taken (a second's worth at most).
    const afterClose = sentInWindow.filter(
      ({ receivedAt }) => receivedAt > boundary.getTime() + 1000,
    );
    expect(afterClose).toHaveLength(0);
    await sleep(2000);
    expect(smtp.received.filter(ofCampaign('Closing'))).toHaveLength(sentInWindow.length);

    // Paused, not failed: what is owed waits for the next opening, a week on (one day a week).
    expect(await ctx.campaign(closing)).toMatchObject({ status: 'sending' });
    // BullMQ keeps a delayed job's due time as its score × 4096 (plus a counter).
    const delayed = await ctx.redis.zrange(
      `${ctx.queuePrefix}:${QUEUE_NAMES.campaignSend}:delayed`,
      0,
      -1,
      'WITHSCORES',
    );
    expect(delayed.length).toBeGreaterThan(0);
    const nextOpening = thisMinute.getTime() + 7 * 24 * 3600 * 1000;
    for (let index = 1; index < delayed.length; index += 2) {
      const dueAt = Math.floor(Number(delayed[index]) / 0x1000);
      expect(Math.abs(dueAt - nextOpening)).toBeLessThan(1000);
    }
    expect(deliveries().size).toBe(sentInWindow.length + subscribers.length);
  }, 180_000);

  it('holds the campaign to its own rate, within 10% over thirty seconds', async () => {
    const recipients = Array.from({ length: 400 }, (_, index) => ({
      email: `p${index}@example.tn`,
    }));
    await ctx.seedContacts(recipients);
    await ctx.startWorker(smtp.url, { timeZone: ZONE, concurrency: 20, batchesInFlight: 4 });
    const id = await ctx.queueCampaign({ recipientType: 'contacts', ratePerMinute: 240 });

    // 4 a second: 120 in thirty seconds, and a second's worth (4) may go at once.
    const first = await smtp.waitFor(() => true, 30_000);
    await sleep(first.receivedAt + 30_000 - Date.now());
    const inPeriod = smtp.received.filter(
      ({ receivedAt }) => receivedAt < first.receivedAt + 30_000,
    ).length;
    expect(inPeriod).toBeGreaterThanOrEqual(120 * 0.9);
    expect(inPeriod).toBeLessThanOrEqual(120 * 1.1);
    // Cancelled, the batches waiting for their pace end at their next wait:
    // the sending stops (at this rate a mail goes every 250 ms while it
    // lasts) and does not start again.
    await CampaignModel.updateOne({ _id: id }, { status: 'cancelled' });
    const atCancel = await countOnceQuiet(() => smtp.received.length, 2000, 15_000);
    await sleep(2000);
    expect(smtp.received).toHaveLength(atCancel);
    expect(atCancel).toBeLessThan(recipients.length);
  }, 150_000);
});
