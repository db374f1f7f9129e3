import { AGENCY_SETTINGS_CACHE_MS, saveAgencySettings } from '@agency/platform';
import { createCampaignContext, type CampaignContext } from '../testing/campaign-context';
import { startSmtpSink, type SmtpSink } from '../testing/smtp-sink';
import { buildWorker, startWorkerProcess, type WorkerProcess } from '../testing/worker-process';

/**
 * The agency's settings reach campaign mail from the store: a worker process
 * already running sends with what an admin saved, without a restart.
 */
let ctx: CampaignContext;
let smtp: SmtpSink;
let worker: WorkerProcess | undefined;

beforeAll(() => {
  buildWorker();
}, 180_000);

beforeEach(async () => {
  smtp = await startSmtpSink();
  ctx = await createCampaignContext();
});
afterEach(async () => {
  if (worker && worker.child.exitCode === null && worker.child.signalCode === null) {
    worker.child.kill('SIGKILL');
    await worker.exited;
  }
  await ctx.close();
  await smtp.close();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const SETTINGS = {
  languages: {
    en: { agencyName: 'Atlas', header: 'News from Atlas', footer: 'You asked for our news.' },
    fr: { agencyName: 'Atlas France', header: '', footer: 'Vous avez demandé nos nouvelles.' },
    ar: { agencyName: 'وكالة أطلس', header: '', footer: 'لقد طلبت أخبارنا.' },
  },
  senders: [
    { name: 'Atlas News', address: 'news@atlas.test' },
    { name: 'Atlas Team', address: 'team@atlas.test' },
  ],
  defaultFrom: 'news@atlas.test',
  replyTo: 'hello@atlas.test',
  postalAddress: '12 Rue de Marseille, 1000 Tunis',
  timeZone: 'Africa/Tunis',
  defaultLocale: 'en' as const,
};

const mailTo = (address: string, after = 0) =>
  smtp.waitFor((entry) => entry.envelopeTo[0] === address && entry.receivedAt >= after, 30_000);

describe('campaign mail and the agency settings', () => {
  it('takes From, Reply-To, name, footer and postal address from the settings a running worker reads', async () => {
    await ctx.seedContacts([
      { email: 'anna@example.com', firstName: 'Anna', locale: 'en' },
      { email: 'layla@example.tn', firstName: 'Layla', locale: 'ar' },
    ]);
    worker = await startWorkerProcess({
      MONGODB_URI: ctx.mongodbUri,
      REDIS_URL: ctx.redisUrl,
      QUEUE_PREFIX: ctx.queuePrefix,
      SMTP_URL: smtp.url,
      MAIL_TO: 'inbox@agency.test',
      MAIL_FROM: 'Old Agency <no-reply@old.test>',
    });
    const translations = [
      {
        locale: 'ar' as const,
        subject: 'مرحبا {{firstName}}',
        content: '<p>عزيزي {{firstName}}</p>',
      },
    ];

    // Before any save: the environment's sender, and no postal address.
    const before = await ctx.queueCampaign({ recipientType: 'contacts', translations });
    await ctx.waitForStatus(before, ['sent']);
    const old = (await mailTo('anna@example.com')).mail;
    expect(old.from?.value[0]).toMatchObject({ name: 'Old Agency', address: 'no-reply@old.test' });
    expect(old.replyTo?.value[0]?.address).toBe('no-reply@old.test');
    expect(old.html).toMatch(/<h1[^>]*>Old Agency<\/h1>/);

    await saveAgencySettings(SETTINGS, 'admin');
    // The worker process keeps what it read for at most this long.
    await sleep(AGENCY_SETTINGS_CACHE_MS + 200);
    const savedAt = Date.now();
    const after = await ctx.queueCampaign({ recipientType: 'contacts', translations });
    await ctx.waitForStatus(after, ['sent']);

    const anna = (await mailTo('anna@example.com', savedAt)).mail;
    expect(anna.from?.value[0]).toMatchObject({ name: 'Atlas News', address: 'news@atlas.test' });
    expect(anna.replyTo?.value[0]?.address).toBe('hello@atlas.test');
    expect(anna.html).toMatch(/<h1[^>]*>Atlas<\/h1>/);
    expect(anna.html).toContain('News from Atlas');
    expect(anna.html).toContain('You asked for our news.');
    expect(anna.html).toContain('12 Rue de Marseille, 1000 Tunis');
    expect(anna.text).toContain('You asked for our news.');
    expect(anna.text).toContain('12 Rue de Marseille, 1000 Tunis');

    const layla = (await mailTo('layla@example.tn', savedAt)).mail;
    expect(layla.html).toMatch(/<h1[^>]*>وكالة أطلس<\/h1>/);
    expect(layla.html).toContain('لقد طلبت أخبارنا.');
    expect(layla.html).not.toContain('You asked for our news.');
    expect(layla.html).toContain('12 Rue de Marseille, 1000 Tunis');
    expect(layla.text).toContain('لقد طلبت أخبارنا.');
    expect(worker.child.exitCode).toBeNull();
  }, 90_000);

  it("sends from the campaign's own allowed address and Reply-To", async () => {
    await ctx.seedContacts([{ email: 'anna@example.com', firstName: 'Anna', locale: 'en' }]);
    await saveAgencySettings(SETTINGS, 'admin');
    worker = await startWorkerProcess({
      MONGODB_URI: ctx.mongodbUri,
      REDIS_URL: ctx.redisUrl,
      QUEUE_PREFIX: ctx.queuePrefix,
      SMTP_URL: smtp.url,
      MAIL_TO: 'inbox@agency.test',
    });
    const id = await ctx.queueCampaign({
      recipientType: 'contacts',
      fromAddress: 'team@atlas.test',
      replyTo: 'sales@atlas.test',
    });
    await ctx.waitForStatus(id, ['sent']);
    const mail = (await mailTo('anna@example.com')).mail;
    expect(mail.from?.value[0]).toMatchObject({ name: 'Atlas Team', address: 'team@atlas.test' });
    expect(mail.replyTo?.value[0]?.address).toBe('sales@atlas.test');
  }, 60_000);
});
