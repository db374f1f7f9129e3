import type { Job } from 'bullmq';
import type { ParsedMail } from 'mailparser';
import {
  CAMPAIGN_QUEUE_NAMES,
  type CampaignRecipient,
  type CampaignSendJob,
} from '@agency/contracts';
import { CampaignModel, createLogger } from '@agency/backend/store';
import { SendLedger } from '../campaigns/send-ledger';
import { createCampaignTransport, type CampaignTransport } from '../campaigns/campaign-transport';
import {
  TEST_LINK_SECRET,
  TEST_SITE_URL,
  createCampaignContext,
  type CampaignContext,
} from '../testing/campaign-context';
import { startSmtpSink, type SmtpSink } from '../testing/smtp-sink';
import {
  TransientSendError,
  campaignMessageId,
  campaignSendProcessor,
  type BatchResult,
} from './campaign-send.processor';

const TRY_LATER = { code: 451, message: '4.3.0 Mailbox busy, try again later' };
const NO_SUCH_USER = { code: 550, message: '5.1.1 Recipient address rejected' };

const amira: CampaignRecipient = {
  key: 'amira@example.tn',
  email: 'Amira@example.tn',
  firstName: 'Amira',
  locale: 'fr',
};
const sami: CampaignRecipient = {
  key: 'sami@example.tn',
  email: 'sami@example.tn',
  firstName: 'Sami',
  locale: 'en',
};

/**
 * One batch of a campaign on its own, called as BullMQ calls it, against
 * MongoDB, the Redis ledger and an SMTP sink: who is mailed, what each
 * refusal becomes, what a replay skips, and when the round ends. The
 * campaign tests run it inside a worker, with crashes and retries.
 */
describe('a campaign send batch', () => {
  let ctx: CampaignContext;
  let ledger: SendLedger;
  let smtp: SmtpSink;
  let transport: CampaignTransport;
  let send: (job: Job<CampaignSendJob>) => Promise<BatchResult>;

  beforeAll(async () => {
    ctx = await createCampaignContext();
    ledger = new SendLedger(ctx.redis, ctx.queuePrefix);
  });
  afterAll(async () => {
    await ctx.close();
  });
  beforeEach(async () => {
    smtp = await startSmtpSink();
    transport = createCampaignTransport(smtp.url, 2);
    send = campaignSendProcessor({
      transport,
      mailFrom: 'Agency <no-reply@agency.test>',
      siteUrl: TEST_SITE_URL,
      mailLinkSecret: TEST_LINK_SECRET,
      messageIdDomain: 'agency.test',
      ledger,
      logger: createLogger('test', 'silent'),
    });
  });
  afterEach(async () => {
    await transport.close();
    await smtp.close();
  });

  /** A campaign the dispatch has started: `sending`, its round's `total` known when given. */
  async function sendingCampaign(total?: number): Promise<string> {
    const id = await ctx.queueCampaign({ addDispatch: false });
    await CampaignModel.updateOne({ _id: id }, { status: 'sending' });
    if (total !== undefined) await ledger.markDispatched(ledger.keys(id, 1), total);
    return id;
  }

  const batch = (
    campaignId: string,
    recipients: CampaignRecipient[],
    options: { round?: number; attempts?: number } = {},
  ) =>
    ctx.sendQueue.add(
      CAMPAIGN_QUEUE_NAMES.send,
      { campaignId, round: options.round ?? 1, recipients },
      { attempts: options.attempts ?? 3 },
    );

  const refuse = (address: string, refusal: typeof TRY_LATER) =>
    smtp.setResponder((mail: ParsedMail) =>
      JSON.stringify(mail.to).toLowerCase().includes(address) ? refusal : undefined,
    );

  const outcomesOf = (id: string, round = 1) =>
    ledger.settledOf(ledger.keys(id, round), [amira.key, sami.key]);

  it('mails each recipient of the batch, personalised, and records each outcome', async () => {
    const id = await sendingCampaign();

    expect(await send(await batch(id, [amira, sami]))).toBe('done');

    expect(smtp.received.map(({ envelopeTo }) => envelopeTo)).toEqual([
      [amira.email],
      [sami.email],
    ]);
    const [toAmira] = smtp.received.map(({ mail }) => mail);
    expect(toAmira?.subject).toBe('Hello Amira');
    expect(toAmira?.html).toContain('Se désabonner');
    expect(toAmira?.messageId).toBe(campaignMessageId(id, 1, amira.key, 'agency.test'));
    expect(await outcomesOf(id)).toEqual([
      { state: 'sent', attempts: 1 },
      { state: 'sent', attempts: 1 },
    ]);
    const facts = await ctx.ledger(id);
    expect(facts.map(({ email, state, attempts }) => ({ email, state, attempts }))).toEqual(
      expect.arrayContaining([
        { email: amira.email, state: 'sent', attempts: 1 },
        { email: sami.email, state: 'sent', attempts: 1 },
      ]),
    );
    // The round is not dispatched yet: the counters are folded in, the campaign goes on.
    expect(await ctx.campaign(id)).toMatchObject({ status: 'sending', sentCount: 2 });
  });

  it('names each mail by campaign, round and recipient, the same on every attempt', () => {
    const id = 'c1';
    const first = campaignMessageId(id, 1, amira.key, 'agency.test');
    expect(first).toMatch(/^<campaign-c1-r1-[0-9a-f]{20}@agency\.test>$/);
    expect(campaignMessageId(id, 1, amira.key, 'agency.test')).toBe(first);
    expect(campaignMessageId(id, 2, amira.key, 'agency.test')).not.toBe(first);
    expect(campaignMessageId(id, 1, sami.key, 'agency.test')).not.toBe(first);
  });

  it('ends the round with the batch that settles its last recipient', async () => {
    const id = await sendingCampaign(2);

    await send(await batch(id, [amira, sami]));

    const campaign = await ctx.campaign(id);
    expect(campaign).toMatchObject({ status: 'sent', sentCount: 2, failedCount: 0 });
    expect(campaign.finishedAt).toBeInstanceOf(Date);
    // The round's Redis state is kept a while for a late replay, then dropped.
    expect(await ctx.redis.ttl(ledger.keys(id, 1).counts)).toBeGreaterThan(0);
  });

  it('mails nobody twice when a batch runs again: whoever has an outcome is skipped', async () => {
    const id = await sendingCampaign();
    await ledger.settle(ledger.keys(id, 1), amira.key, { state: 'sent', attempts: 1 });

    expect(await send(await batch(id, [amira, sami]))).toBe('done');

    expect(smtp.received.map(({ envelopeTo }) => envelopeTo)).toEqual([[sami.email]]);
    expect((await ctx.ledger(id)).map(({ email }) => email).sort()).toEqual(
      [amira.email, sami.email].sort(),
    );
  });

  it('sends nothing for a campaign that is no longer sending, or for another round', async () => {
    const paused = await sendingCampaign();
    await CampaignModel.updateOne({ _id: paused }, { status: 'paused' });
    const resent = await sendingCampaign();
    await CampaignModel.updateOne({ _id: resent }, { round: 2 });

    expect(await send(await batch(paused, [amira]))).toBe('skipped');
    expect(await send(await batch(resent, [amira], { round: 1 }))).toBe('skipped');

    expect(smtp.received).toEqual([]);
    expect(await outcomesOf(paused)).toEqual([undefined, undefined]);
  });

  it('leaves a passing refusal to the retries, recording everyone else', async () => {
    const id = await sendingCampaign();
    refuse(sami.key, TRY_LATER);

    const run = send(await batch(id, [amira, sami], { attempts: 3 }));

    await expect(run).rejects.toThrow(TransientSendError);
    await expect(run).rejects.toThrow(
      '1 of 2 mails not accepted yet: 451 4.3.0 Mailbox busy, try again later',
    );
    expect(await outcomesOf(id)).toEqual([{ state: 'sent', attempts: 1 }, undefined]);
    expect(await ctx.campaign(id)).toMatchObject({ sentCount: 1, failedCount: 0 });
  });

  it('records a passing refusal as failed on the last attempt, with the reason', async () => {
    const id = await sendingCampaign(2);
    refuse(sami.key, TRY_LATER);

    expect(await send(await batch(id, [amira, sami], { attempts: 1 }))).toBe('done');

    const reason = '451 4.3.0 Mailbox busy, try again later';
    expect(await outcomesOf(id)).toEqual([
      { state: 'sent', attempts: 1 },
      { state: 'failed', reason, attempts: 1 },
    ]);
    const fact = (await ctx.ledger(id)).find(({ email }) => email === sami.email);
    expect(fact).toMatchObject({ state: 'failed', reason, attempts: 1 });
    expect(await ctx.campaign(id)).toMatchObject({ status: 'sent', sentCount: 1, failedCount: 1 });
  });

  it('records a refusal for good as failed at once, without a retry', async () => {
    const id = await sendingCampaign(1);
    refuse(amira.key, NO_SUCH_USER);

    expect(await send(await batch(id, [amira], { attempts: 3 }))).toBe('done');

    expect(await outcomesOf(id)).toEqual([
      { state: 'failed', reason: '550 5.1.1 Recipient address rejected', attempts: 1 },
      undefined,
    ]);
    // Nobody received it: the campaign failed.
    expect(await ctx.campaign(id)).toMatchObject({ status: 'failed', failedCount: 1 });
  });

  it('compiles the mail once per send: the counters written after a batch do not rebuild it', async () => {
    const id = await sendingCampaign();
    // Both in English: one compiled frame per language.
    const karim = {
      ...sami,
      key: 'karim@example.tn',
      email: 'karim@example.tn',
      firstName: 'Karim',
    };
    await send(await batch(id, [sami]));
    const folded = await ctx.campaign(id);
    await send(await batch(id, [karim]));

    // The first batch's counters moved updatedAt; the second mail still came from the same compiled frame.
    expect(folded?.updatedAt).not.toEqual(folded?.createdAt);
    const boundaries = smtp.received.map(({ mail }) => boundaryOf(mail));
    expect(boundaries[0]).toEqual(expect.any(String));
    expect(boundaries).toEqual([boundaries[0], boundaries[0]]);
  });

  it('sends the campaign as it is now once it was queued again since the last batch', async () => {
    const id = await sendingCampaign();
    await send(await batch(id, [amira]));
    // Queued again (a resume, a resend): the compiled mail of the first batch may be stale.
    await CampaignModel.updateOne(
      { _id: id },
      { subject: 'Bonjour {{firstName}}', queuedAt: new Date(Date.now() + 60_000) },
      { timestamps: false },
    );

    await send(await batch(id, [sami]));

    expect(smtp.received.map(({ mail }) => mail.subject)).toEqual(['Hello Amira', 'Bonjour Sami']);
  });
});

/** The multipart boundary of a received mail: one per compiled campaign frame. */
function boundaryOf(mail: ParsedMail): unknown {
  const contentType = mail.headers.get('content-type') as { params?: { boundary?: string } };
  return contentType.params?.boundary;
}
