import request from 'supertest';
import type { ParsedMail } from 'mailparser';
import { QUEUE_NAMES, type Locale } from '@agency/contracts';
import { createApp, createPasswordResetQueue, loadApiConfig } from '@agency/backend';
import { createLogger, createMailQueues, verifyManageToken, type Redis } from '@agency/platform';
import { elementsNamed } from '@agency/platform/testing/html-elements';
import { CampaignModel } from '@agency/platform/testing/campaigns-models';
import { TEST_SECRETS } from '@agency/platform/testing/test-secrets';
import { UserModel } from '@agency/platform/testing/users-models';
import {
  TEST_LINK_SECRET,
  TEST_SITE_URL,
  createCampaignContext,
  type CampaignContext,
} from '../testing/campaign-context';
import { startSmtpSink, type SmtpSink } from '../testing/smtp-sink';

// Whole sends on real services.
jest.setTimeout(60_000);

/**
 * The "Manage your subscription" link of campaign mail, read back from the
 * SMTP server: beside the unsubscribe link in both parts, in the recipient's
 * language, with a token the preference API accepts for that address alone,
 * and never a tracking link.
 */
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

/** The API on the campaign's store, with the worker's link secret: the preference page's backend. */
function preferencesApi(redis: Redis) {
  const config = loadApiConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    MONGODB_URI: ctx.mongodbUri,
    REDIS_URL: ctx.redisUrl,
    QUEUE_PREFIX: ctx.queuePrefix,
    ...TEST_SECRETS,
  });
  expect(config.mailLinkSecret).toBe(TEST_LINK_SECRET);
  const app = createApp({
    config,
    logger: createLogger('test', 'silent'),
    queues: createMailQueues(redis, config.queuePrefix),
    passwordResetQueue: createPasswordResetQueue(redis, config.queuePrefix),
    redis,
  });
  return (token: string) =>
    request(app.callback()).post('/api/newsletter/preferences').send({ token });
}

const LABELS: Record<Locale, string> = {
  en: 'Manage your subscription',
  fr: 'Gérer votre abonnement',
  ar: 'إدارة اشتراكك',
};
const PAGES: Record<Locale, string> = {
  en: `${TEST_SITE_URL}/newsletter/preferences`,
  fr: `${TEST_SITE_URL}/fr/newsletter/preferences`,
  ar: `${TEST_SITE_URL}/ar/newsletter/preferences`,
};
const RECIPIENTS: [string, Locale][] = [
  ['amira@example.tn', 'en'],
  ['claire@example.fr', 'fr'],
  ['layla@example.tn', 'ar'],
];
const TRANSLATIONS = [
  {
    locale: 'fr' as const,
    subject: 'Bonjour',
    content: '<p>Voir <a href="https://shop.example/packs">nos packs</a>.</p>',
  },
  {
    locale: 'ar' as const,
    subject: 'مرحبا',
    content: '<p>انظر <a href="https://shop.example/packs">عروضنا</a>.</p>',
  },
];

const mailTo = (address: string): ParsedMail => {
  const received = smtp.received.find(({ envelopeTo }) => envelopeTo.includes(address));
  if (!received) throw new Error(`no mail to ${address}`);
  return received.mail;
};

/** The manage link of a mail: the HTML's link with the label, and the text's line, which must agree. */
function manageLinkOf(mail: ParsedMail, locale: Locale): URL {
  const label = LABELS[locale];
  const links = elementsNamed(typeof mail.html === 'string' ? mail.html : '', 'a').filter((link) =>
    link.children.some((child) => 'data' in child && child.data === label),
  );
  expect(links).toHaveLength(1);
  const href = links[0]?.attribs.href ?? '';
  expect(mail.text).toContain(`${label}: ${href}`);
  return new URL(href);
}

async function sentTo(
  recipients: readonly [string, Locale][],
  fields: Parameters<CampaignContext['queueCampaign']>[0] = {},
): Promise<string> {
  await ctx.seedSubscribers(
    recipients.map(([email, locale]) => ({ email, status: 'confirmed', locale })),
  );
  await ctx.startWorker(smtp.url);
  const id = await ctx.queueCampaign({
    recipientType: 'subscribers',
    content: '<p>See <a href="https://shop.example/packs">our packs</a>.</p>',
    translations: TRANSLATIONS,
    ...fields,
  });
  await ctx.waitForStatus(id, ['sent']);
  return id;
}

describe("a campaign mail's manage link", () => {
  it("opens the preference page in the recipient's language, with a token for their address alone", async () => {
    await sentTo(RECIPIENTS);
    const readPreferences = preferencesApi(ctx.redis);

    const tokens = new Map<string, string>();
    for (const [email, locale] of RECIPIENTS) {
      const mail = mailTo(email);
      const manage = manageLinkOf(mail, locale);
      expect(`${manage.origin}${manage.pathname}`).toBe(PAGES[locale]);
      expect(manage.searchParams.get('lang')).toBe(locale);
      // Beside the unsubscribe link, in the same line of the footer.
      expect(String(mail.html)).toMatch(
        new RegExp(
          `/newsletter/unsubscribe\\?[^"]*">[^<]+</a> · <a href="[^"]+">${LABELS[locale]}</a>`,
        ),
      );
      const token = manage.searchParams.get('token') ?? '';
      expect(verifyManageToken(token, TEST_LINK_SECRET)).toEqual({ outcome: 'valid', email });
      tokens.set(email, token);

      const read = await readPreferences(token);
      expect(read.status).toBe(200);
      expect(read.body).toMatchObject({ email, locale, subscription: 'confirmed' });
    }
    expect(new Set(tokens.values()).size).toBe(RECIPIENTS.length);
  });

  it("refuses one mail's token made to name another address", async () => {
    await sentTo(RECIPIENTS.slice(0, 2));
    const readPreferences = preferencesApi(ctx.redis);
    const token = manageLinkOf(mailTo('amira@example.tn'), 'en').searchParams.get('token') ?? '';
    const [header, , signature] = token.split('.');
    const claims = { aud: 'newsletter-manage', sub: 'claire@example.fr' };
    const forged = [header, Buffer.from(JSON.stringify(claims)).toString('base64url'), signature];

    const refused = await readPreferences(forged.join('.'));
    expect(refused.status).toBe(404);
    expect(refused.body.error.code).toBe('NOT_FOUND');
    expect(JSON.stringify(refused.body)).not.toContain('claire');
    expect((await readPreferences(token)).body.email).toBe('amira@example.tn');
  });

  it('is never a tracking link when clicks are tracked, and is not in the link table', async () => {
    const id = await sentTo(RECIPIENTS, { tracking: { opens: true, clicks: true } });
    const links = (await CampaignModel.findById(id).lean())?.tracking?.links ?? [];
    expect(links).toEqual(['https://shop.example/packs']);

    for (const [email, locale] of RECIPIENTS) {
      const mail = mailTo(email);
      const manage = manageLinkOf(mail, locale);
      expect(`${manage.origin}${manage.pathname}`).toBe(PAGES[locale]);
      expect(verifyManageToken(manage.searchParams.get('token') ?? '', TEST_LINK_SECRET)).toEqual({
        outcome: 'valid',
        email,
      });
      // The campaign's own link is tracked in the same mail.
      expect(String(mail.html)).toContain(`${TEST_SITE_URL}/api/t/c/`);
      expect(String(mail.html)).not.toContain('href="https://shop.example/packs"');
    }
  });

  it('carries, in a test send, the preference page with no token, as the unsubscribe link does', async () => {
    await ctx.startWorker(smtp.url);
    const id = await ctx.queueCampaign({ addDispatch: false, translations: TRANSLATIONS });
    await UserModel.create({
      username: 'boss',
      email: 'boss@agency.test',
      role: 'manager',
      passwordHash: 'not used here',
    });
    await ctx.testQueue.add(QUEUE_NAMES.campaignTestSend, {
      campaignId: id,
      email: 'boss@agency.test',
      locale: 'fr',
    });
    const { mail } = await smtp.waitFor(() => true);
    const manage = manageLinkOf(mail, 'fr');
    expect(`${manage.origin}${manage.pathname}`).toBe(PAGES.fr);
    expect([...manage.searchParams.entries()]).toEqual([
      ['test', '1'],
      ['lang', 'fr'],
    ]);
  });
});
