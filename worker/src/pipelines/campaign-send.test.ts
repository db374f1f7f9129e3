import type { ParsedMail } from 'mailparser';
import { QUEUE_NAMES, TEST_SEND_SAMPLE_NAMES } from '@agency/contracts';
import { campaignAudience, campaignControls } from '@agency/backend';
import {
  createKeptCounts,
  createLogger,
  keptAudienceTotal,
  reconcileStats,
} from '@agency/platform';
import { UserModel } from '@agency/platform/testing/users-models';
import { createCampaignContext, type CampaignContext } from '../testing/campaign-context';
import { startSmtpSink, type SmtpSink } from '../testing/smtp-sink';

// Whole sends on real services: more than the mutation run's 10 s default.
jest.setTimeout(60_000);

let ctx: CampaignContext;
let smtp: SmtpSink;

beforeEach(async () => {
  smtp = await startSmtpSink();
  ctx = await createCampaignContext();
});
afterEach(async () => {
  await ctx.close();
  await smtp.close();
});

const recipientsOf = (sink: SmtpSink) =>
  sink.received.flatMap((entry) => entry.envelopeTo.map((address) => address.toLowerCase())).sort();

function header(mail: ParsedMail | undefined, name: string): string | undefined {
  const line = mail?.headerLines.find(({ key }) => key === name)?.line;
  return line
    ?.slice(line.indexOf(':') + 1)
    .replace(/\r\n[ \t]+/g, ' ')
    .trim();
}

describe('who a campaign is sent to', () => {
  beforeEach(async () => {
    await ctx.seedContacts([
      { email: 'amira@example.tn', firstName: 'Amira' },
      { email: 'Sami@Example.tn ', firstName: 'Sami' },
      { email: 'sami@example.tn', firstName: 'Sami again' },
      { email: 'left@example.tn', firstName: 'Gone' },
      { email: 'both@example.tn', firstName: 'Both' },
      // Did not tick "send me news": mailed only under a lawful basis.
      { email: 'silent@example.tn', firstName: 'Silent', consented: false },
    ]);
    await ctx.seedSubscribers([
      { email: 'confirmed@example.tn', status: 'confirmed' },
      { email: 'both@example.tn', status: 'confirmed' },
      { email: 'waiting@example.tn', status: 'pending' },
      { email: 'left@example.tn', status: 'unsubscribed' },
    ]);
    await ctx.startWorker(smtp.url);
  });

  it.each([
    ['contacts', null, ['amira@example.tn', 'both@example.tn', 'sami@example.tn']],
    ['subscribers', null, ['both@example.tn', 'confirmed@example.tn']],
    [
      'all',
      null,
      ['amira@example.tn', 'both@example.tn', 'confirmed@example.tn', 'sami@example.tn'],
    ],
    [
      'contacts',
      'legitimate-interest',
      ['amira@example.tn', 'both@example.tn', 'sami@example.tn', 'silent@example.tn'],
    ],
    [
      'all',
      'contract',
      [
        'amira@example.tn',
        'both@example.tn',
        'confirmed@example.tn',
        'sami@example.tn',
        'silent@example.tn',
      ],
    ],
  ] as const)(
    '%s (lawful basis: %s): one mail per normalised address, nobody unsubscribed, nobody unconfirmed, nobody who did not consent without a basis',
    async (recipientType, enquiryLawfulBasis, expected) => {
      const id = await ctx.queueCampaign({ recipientType, enquiryLawfulBasis });
      await ctx.waitForStatus(id, ['sent']);
      expect(recipientsOf(smtp)).toEqual(expected);
      const campaign = await ctx.campaign(id);
      expect(campaign).toMatchObject({
        status: 'sent',
        total: expected.length,
        sentCount: expected.length,
        failedCount: 0,
      });
      expect(campaign.startedAt).toBeInstanceOf(Date);
      expect((campaign.finishedAt as Date).getTime()).toBeGreaterThanOrEqual(
        (campaign.startedAt as Date).getTime(),
      );
      const ledger = await ctx.ledger(id);
      expect(ledger.map(({ email }) => email.toLowerCase()).sort()).toEqual(expected);
      expect(ledger.every(({ state }) => state === 'sent')).toBe(true);
      // The count a sender confirms before sending is the list the send walked
      // (from the kept figures: the seeds went behind the API, so recounted first).
      const figures = {
        prefix: ctx.queuePrefix,
        timeZone: 'UTC',
        logger: createLogger('test', 'silent'),
      };
      await reconcileStats({ redis: ctx.redis, settleMs: 0, ...figures });
      const kept = createKeptCounts(ctx.redis, figures);
      const audience = await campaignAudience(kept);
      // With a basis, the editor adds those it says were left out for lack of consent.
      const leftOut = enquiryLawfulBasis ? audience.withoutConsent[recipientType] : 0;
      expect(audience[recipientType] + leftOut).toBe(expected.length);
      // ...and the total the progress bar shows while the dispatch walks it.
      const target = { recipientType, listIds: [], enquiryLawfulBasis };
      expect(await keptAudienceTotal(kept, target)).toBe(expected.length);
    },
  );

  it('does not mail an enquiry without consent in a campaign to "Everyone", and mails one with consent', async () => {
    const id = await ctx.queueCampaign({ recipientType: 'all' });
    await ctx.waitForStatus(id, ['sent']);

    expect(recipientsOf(smtp)).toContain('amira@example.tn');
    expect(recipientsOf(smtp)).not.toContain('silent@example.tn');
    expect((await ctx.ledger(id)).map(({ email }) => email)).not.toContain('silent@example.tn');
  });
});

describe('what each recipient receives', () => {
  it('personalises with escaped values, adds the footer in their language and the unsubscribe headers', async () => {
    await ctx.seedContacts([
      { email: 'hacker@example.tn', firstName: '<img src=x onerror=alert(1)>' },
      { email: 'claire@example.fr', firstName: 'Claire', locale: 'fr' },
    ]);
    await ctx.startWorker(smtp.url);
    const id = await ctx.queueCampaign({
      recipientType: 'contacts',
      subject: 'Hello {{firstName}}',
      content: '<p>Dear {{ firstName }}, this is for {{email}}.</p>',
      translations: [
        {
          locale: 'fr',
          subject: 'Bonjour {{firstName}}',
          content: '<p>Chère {{firstName}}, ceci est pour {{email}}.</p>',
        },
      ],
    });
    await ctx.waitForStatus(id, ['sent']);
    const byAddress = new Map(smtp.received.map((entry) => [entry.envelopeTo[0], entry.mail]));
    const hacker = byAddress.get('hacker@example.tn');
    expect(hacker?.html).toMatch(
      /<p style="[^"]*">Dear &lt;img src=x onerror=alert\(1\)&gt;, this is for hacker@example.tn.<\/p>/,
    );
    expect(hacker?.html).not.toContain('<img src=x');
    expect(hacker?.subject).toBe('Hello <img src=x onerror=alert(1)>');
    expect(hacker?.text).toContain(
      'Dear <img src=x onerror=alert(1)>, this is for hacker@example.tn.',
    );
    const claire = byAddress.get('claire@example.fr');
    expect(claire?.subject).toBe('Bonjour Claire');
    expect(claire?.html).toContain('Se désabonner');
    expect(claire?.html).toContain('lang="fr"');
    expect(hacker?.html).toContain('Unsubscribe');
    expect(header(claire, 'list-unsubscribe')).toMatch(
      /^<http:\/\/site\.test\/api\/newsletter\/unsubscribe\?token=[\w.-]+>$/,
    );
    expect(header(claire, 'list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
    // The footer's link opens the page with the button, in the recipient's language.
    expect(claire?.html).toMatch(/href="http:\/\/site\.test\/[^"]*unsubscribe[^"]*lang=fr"/);
  });

  it('sends a test to one address, outside the ledger and the counters', async () => {
    await ctx.startWorker(smtp.url);
    const id = await ctx.queueCampaign({ addDispatch: false });
    // A staff member's address: the only kind, with those admins allow, a test goes to.
    await UserModel.create({
      username: 'boss',
      email: 'boss@agency.test',
      role: 'manager',
      passwordHash: 'not used here',
    });
    await ctx.testQueue.add(QUEUE_NAMES.campaignTestSend, {
      campaignId: id,
      email: 'boss@agency.test',
    });
    const { mail, envelopeTo } = await smtp.waitFor(() => true);
    expect(envelopeTo).toEqual(['boss@agency.test']);
    // A test reads as a named recipient's mail would: the sample name fills the subject.
    expect(mail.subject).toBe(`[Test] Hello ${TEST_SEND_SAMPLE_NAMES.en.firstName}`);
    expect(await ctx.ledger(id)).toEqual([]);
    expect(await ctx.campaign(id)).toMatchObject({ status: 'queued', sentCount: 0 });
  });
});

function addresses(count: number, domain = 'example.tn') {
  return Array.from({ length: count }, (_, index) => ({ email: `r${index}@${domain}` }));
}

describe('SMTP faults', () => {
  it('delivers everyone when the server answers 451 to a fifth of the messages for a while', async () => {
    await ctx.seedContacts(addresses(100));
    let refusals = 0;
    smtp.setResponder((mail) => {
      // Every fifth message is refused while the first 60 refusals last.
      const index = Number(/r(\d+)@/.exec(mail.to ? JSON.stringify(mail.to) : '')?.[1] ?? 0);
      if (index % 5 === 0 && refusals < 60) {
        refusals += 1;
        return { code: 451, message: '4.7.1 Greylisted, try again later' };
      }
      return undefined;
    });
    await ctx.startWorker(smtp.url, { batchSize: 10, retryDelayMs: 50, retryAttempts: 10 });
    const id = await ctx.queueCampaign({ recipientType: 'contacts' });
    await ctx.waitForStatus(id, ['sent']);
    expect(refusals).toBeGreaterThanOrEqual(20);
    expect(new Set(recipientsOf(smtp)).size).toBe(100);
    expect(recipientsOf(smtp)).toHaveLength(100);
    expect(await ctx.campaign(id)).toMatchObject({ sentCount: 100, failedCount: 0, total: 100 });
    const retried = (await ctx.ledger(id)).filter(
      (fact) => fact.state === 'sent' && (fact.attempts ?? 0) > 1,
    );
    expect(retried.length).toBeGreaterThanOrEqual(20);
  });

  it('records a 550 as failed with the reply, delivers the rest, and resends to the failed only', async () => {
    await ctx.seedContacts(addresses(30));
    const refused = new Set(['r3@example.tn', 'r17@example.tn', 'r29@example.tn']);
    smtp.setResponder((mail) => {
      const to = (Array.isArray(mail.to) ? mail.to[0] : mail.to)?.value[0]?.address ?? '';
      return refused.has(to)
        ? { code: 550, message: `5.1.1 <${to}>: Recipient address rejected` }
        : undefined;
    });
    await ctx.startWorker(smtp.url, { batchSize: 7 });
    const id = await ctx.queueCampaign({ recipientType: 'contacts' });
    await ctx.waitForStatus(id, ['sent']);
    expect(recipientsOf(smtp)).toHaveLength(27);
    expect(recipientsOf(smtp).some((address) => refused.has(address))).toBe(false);
    expect(await ctx.campaign(id)).toMatchObject({ status: 'sent', sentCount: 27, failedCount: 3 });
    const failed = (await ctx.ledger(id)).filter((fact) => fact.state === 'failed');
    expect(failed.map((fact) => [fact.email, fact.reason]).sort()).toEqual(
      [...refused]
        .sort()
        .map((email) => [email, `550 5.1.1 <${email}>: Recipient address rejected`]),
    );

    // The addresses were fixed: a resend reaches exactly those three.
    smtp.setResponder(undefined);
    await campaignControls({
      queue: ctx.controlQueue,
      redis: ctx.redis,
      prefix: ctx.queuePrefix,
    }).resendToFailed(id);
    await ctx.waitForStatus(id, ['sent']);
    expect(recipientsOf(smtp)).toHaveLength(30);
    expect(new Set(recipientsOf(smtp)).size).toBe(30);
    expect(await ctx.campaign(id)).toMatchObject({
      status: 'sent',
      sentCount: 30,
      failedCount: 0,
      round: 2,
      total: 30,
    });
  });

  it('ends failed only when every recipient failed', async () => {
    await ctx.seedContacts(addresses(4));
    smtp.setResponder(() => ({ code: 550, message: '5.7.1 Relaying denied' }));
    await ctx.startWorker(smtp.url);
    const id = await ctx.queueCampaign({ recipientType: 'contacts' });
    await ctx.waitForStatus(id, ['failed']);
    expect(await ctx.campaign(id)).toMatchObject({ sentCount: 0, failedCount: 4, total: 4 });
  });
});
