import { Types } from 'mongoose';
import { UnrecoverableError, type Job } from 'bullmq';
import {
  QUEUE_NAMES,
  TEST_SEND_SAMPLE_NAMES,
  type CampaignTestSendJob,
  type Locale,
} from '@agency/contracts';
import {
  createLogger,
  mailIdentityKey,
  saveTestRecipients,
  mongoCampaignStore,
} from '@agency/platform';
import { SubscriberModel, SuppressionModel } from '@agency/platform/testing/audience-models';
import { UserModel } from '@agency/platform/testing/users-models';
import { createCampaignTransport } from './campaign-transport';
import type { CampaignMessenger } from './campaign-messenger';
import { createSmtpCampaignMessenger } from './smtp-campaign-messenger';
import {
  TEST_LINK_SECRET,
  TEST_SITE_URL,
  createCampaignContext,
  type CampaignContext,
} from '../testing/campaign-context';
import { startSmtpSink, type SmtpSink } from '../testing/smtp-sink';
import { TEST_SUBJECT_PREFIX, campaignTestSendProcessor } from './campaign-test-send.processor';

/** A staff member's address: tests go only to those and to the ones admins allow. */
const TEST_ADDRESS = 'boss@agency.test';

/**
 * A test send on its own, called as BullMQ calls it, against MongoDB and an
 * SMTP server: what the one mail looks like, and how refusals end the job.
 */
describe('the campaign test send', () => {
  let ctx: CampaignContext;
  let smtp: SmtpSink;
  let messenger: CampaignMessenger;
  let process: (job: Job<CampaignTestSendJob>) => Promise<'sent' | 'skipped'>;

  beforeAll(async () => {
    ctx = await createCampaignContext();
    await UserModel.create({
      username: 'boss',
      email: TEST_ADDRESS,
      role: 'manager',
      passwordHash: 'not used here',
    });
  });
  afterAll(async () => {
    await ctx.close();
  });
  beforeEach(async () => {
    smtp = await startSmtpSink();
    messenger = createSmtpCampaignMessenger({
      transport: createCampaignTransport(smtp.url, 1),
      mailFrom: 'Agency <no-reply@agency.test>',
      siteUrl: TEST_SITE_URL,
      mailLinkSecret: TEST_LINK_SECRET,
    });
    process = campaignTestSendProcessor({
      store: mongoCampaignStore,
      messenger,
      messageIdDomain: 'agency.test',
      identityKey: mailIdentityKey(TEST_LINK_SECRET),
      logger: createLogger('test', 'silent'),
    });
  });
  afterEach(async () => {
    await messenger.close();
    await smtp.close();
  });

  const testJob = (campaignId: string) =>
    ctx.testQueue.add(QUEUE_NAMES.campaignTestSend, { campaignId, email: TEST_ADDRESS });

  it('mails the campaign to the one address, its subject marked as a test, outside the ledger', async () => {
    const id = await ctx.queueCampaign({
      subject: 'Spring offer for {{firstName}}!',
      content: '<p>Dear {{firstName}}{{lastName}}, our packages are here.</p>',
      addDispatch: false,
    });

    expect(await process(await testJob(id))).toBe('sent');

    expect(TEST_SUBJECT_PREFIX).toBe('[Test] ');
    expect(smtp.received).toHaveLength(1);
    const [{ envelopeTo, mail }] = smtp.received as [(typeof smtp.received)[number]];
    expect(envelopeTo).toEqual([TEST_ADDRESS]);
    // Staff accounts have no name: the test reads as a named recipient's mail would.
    expect(mail.subject).toBe('[Test] Spring offer for Ada!');
    expect(mail.html).toContain('Dear AdaLovelace, our packages are here.');
    expect(mail.text).toContain('Dear AdaLovelace, our packages are here.');
    expect(mail.messageId).toMatch(/^<campaign-test-[0-9a-f-]{36}-k[0-9a-f]{20}@agency\.test>$/);
    expect(await ctx.ledger(id)).toEqual([]);
    expect(await ctx.campaign(id)).toMatchObject({ status: 'queued', sentCount: 0 });
  });

  it('fills the placeholders with the sample names of the language the test is read in', async () => {
    const id = await ctx.queueCampaign({
      subject: 'Offer for {{firstName}}',
      content: '<p>Dear {{firstName}} ({{email}}),</p>',
      translations: [
        { locale: 'ar', subject: 'عرض لـ {{firstName}}', content: '<p>مرحبًا {{firstName}}</p>' },
      ],
      addDispatch: false,
    });
    const to = (locale: Locale) =>
      ctx.testQueue.add(QUEUE_NAMES.campaignTestSend, {
        campaignId: id,
        email: TEST_ADDRESS,
        locale,
      });

    await process(await to('ar'));
    // French is not written: the English mail, with the English sample.
    await process(await to('fr'));

    const [arabic, fallback] = smtp.received.map(({ mail }) => mail);
    expect(arabic?.subject).toBe(`[Test] عرض لـ ${TEST_SEND_SAMPLE_NAMES.ar.firstName}`);
    expect(arabic?.html).toContain(`مرحبًا ${TEST_SEND_SAMPLE_NAMES.ar.firstName}`);
    expect(fallback?.html).toContain(
      `Dear ${TEST_SEND_SAMPLE_NAMES.en.firstName} (${TEST_ADDRESS}),`,
    );
  });

  it('links its unsubscribe to the page that says it was a test, never to a working token', async () => {
    // The staff member is also a subscriber: a test must not be able to unsubscribe them.
    await SubscriberModel.create({ email: TEST_ADDRESS, status: 'confirmed' });
    const id = await ctx.queueCampaign({ addDispatch: false });

    await process(
      await ctx.testQueue.add(QUEUE_NAMES.campaignTestSend, {
        campaignId: id,
        email: TEST_ADDRESS,
        locale: 'en',
      }),
    );

    const [{ mail }] = smtp.received as [(typeof smtp.received)[number]];
    const testPage = `${TEST_SITE_URL}/newsletter/unsubscribe?test=1&lang=en`;
    const footerLinks = [...String(mail.html).matchAll(/href="([^"]+)"/g)].map(([, href]) =>
      (href ?? '').replace(/&amp;/g, '&'),
    );
    expect(footerLinks).toContain(testPage);
    const listUnsubscribe = mail.headerLines.find(({ key }) => key === 'list-unsubscribe');
    expect(listUnsubscribe?.line).toBe(`List-Unsubscribe: <${testPage}>`);
    expect(String(mail.html)).not.toContain('token=');
    await SubscriberModel.deleteOne({ email: TEST_ADDRESS });
  });

  it('sends it in the language asked for, the campaign’s own when none is', async () => {
    const id = await ctx.queueCampaign({
      subject: 'Spring offer',
      translations: [{ locale: 'fr', subject: 'Offre de printemps', content: '<p>Bonjour</p>' }],
      addDispatch: false,
    });

    await process(
      await ctx.testQueue.add(QUEUE_NAMES.campaignTestSend, {
        campaignId: id,
        email: TEST_ADDRESS,
        locale: 'fr',
      }),
    );
    await process(await testJob(id));

    expect(smtp.received.map(({ mail }) => mail.subject)).toEqual([
      '[Test] Offre de printemps',
      '[Test] Spring offer',
    ]);
  });

  it('gives each test its own Message-ID, so a second test is not taken for a duplicate', async () => {
    const id = await ctx.queueCampaign({ addDispatch: false });

    await process(await testJob(id));
    await process(await testJob(id));

    const [first, second] = smtp.received.map(({ mail }) => mail.messageId);
    expect(first).not.toBe(second);
  });

  it('sends nothing to an address that may no longer receive tests when the job runs', async () => {
    const id = await ctx.queueCampaign({ addDispatch: false });
    await saveTestRecipients(['@client.tn'], 'rim');
    const to = (email: string) =>
      ctx.testQueue.add(QUEUE_NAMES.campaignTestSend, { campaignId: id, email });
    await SuppressionModel.create({
      _id: 'bounced@client.tn',
      email: 'bounced@client.tn',
      reason: 'hard-bounce',
      source: 'staff',
      at: new Date(),
    });
    await SubscriberModel.create({ email: 'left@client.tn', status: 'unsubscribed' });

    // Queued before the admin removed it, or by hand on the queue board.
    expect(await process(await to('stranger@gmail.com'))).toBe('skipped');
    expect(await process(await to('bounced@client.tn'))).toBe('skipped');
    expect(await process(await to('left@client.tn'))).toBe('skipped');
    expect(smtp.received).toEqual([]);
    expect(await process(await to('ceo@client.tn'))).toBe('sent');
    expect(smtp.received.map(({ envelopeTo }) => envelopeTo)).toEqual([['ceo@client.tn']]);
  });

  it('sends nothing for a campaign that no longer exists', async () => {
    expect(await process(await testJob(new Types.ObjectId().toHexString()))).toBe('skipped');
    expect(smtp.received).toEqual([]);
  });

  it('gives up at once on an address the server refuses for good', async () => {
    const id = await ctx.queueCampaign({ addDispatch: false });
    smtp.setResponder(() => ({ code: 550, message: '5.1.1 Recipient address rejected' }));

    await expect(process(await testJob(id))).rejects.toThrow(UnrecoverableError);
  });

  it('leaves a passing refusal to the retries', async () => {
    const id = await ctx.queueCampaign({ addDispatch: false });
    smtp.setResponder(() => ({ code: 451, message: '4.3.0 Mailbox busy, try again later' }));

    const run = process(await testJob(id));

    await expect(run).rejects.toThrow(/try again later/);
    await expect(run).rejects.not.toThrow(UnrecoverableError);
  });
});
