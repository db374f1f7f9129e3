import { elementsNamed } from '@agency/platform/testing/html-elements';
import type { ParsedMail } from 'mailparser';
import { DEFAULT_TEMPLATE, QUEUE_NAMES, type Locale } from '@agency/contracts';
import {
  newCampaignTrackingKey,
  recipientKeyOf,
  trackingTokenKey,
  verifyClickToken,
  verifyOpenToken,
  verifyUnsubscribeLink,
} from '@agency/platform';
import { CampaignModel } from '@agency/platform/testing/campaigns-models';
import { UserModel } from '@agency/platform/testing/users-models';
import {
  TEST_LINK_SECRET,
  TEST_SITE_URL,
  createCampaignContext,
  type CampaignContext,
} from '../testing/campaign-context';
import { startSmtpSink, type SmtpSink } from '../testing/smtp-sink';
import { createCampaignTransport } from '../campaigns/campaign-transport';
import { createSmtpCampaignMessenger } from '../campaigns/smtp-campaign-messenger';

// Whole sends on real services.
jest.setTimeout(60_000);

/**
 * What a tracked campaign's mail carries, from the send to the SMTP server
 * read back: every web link of both parts rewritten to a tracking link whose
 * token names the link's index, the subscription links left alone, the open
 * pixel and the hidden trap link, each recipient under their own key.
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

const TOKEN_KEY = trackingTokenKey(TEST_LINK_SECRET);
const CLICK_PREFIX = `${TEST_SITE_URL}/api/t/c/`;
const OPEN_PREFIX = `${TEST_SITE_URL}/api/t/o/`;
const PREFERENCES = `${TEST_SITE_URL}/newsletter/preferences?list=1`;

const CONTENT = [
  '<p>Dear {{firstName}}, see <a href="https://shop.example/packs">the packs</a>,',
  ' <a href="https://shop.example/contact?a=1&amp;b=2">write to us</a>,',
  ' <a href="mailto:hello@agency.test">mail us</a>',
  ` or <a href="${PREFERENCES}">your preferences</a>.</p>`,
  '<p>Or read https://blog.example/spring in your browser.</p>',
  // Said twice: one index, one address in each mail.
  '<p><a href="https://shop.example/packs">Our packs again</a></p>',
].join('');
const TARGETS = [
  'https://shop.example/packs',
  'https://shop.example/contact?a=1&b=2',
  'https://blog.example/spring',
];

const htmlOf = (mail: ParsedMail) => (typeof mail.html === 'string' ? mail.html : '');
const hrefsOf = (mail: ParsedMail) =>
  elementsNamed(htmlOf(mail), 'a').map((link) => link.attribs.href ?? '');
const textUrlsOf = (mail: ParsedMail) => mail.text?.match(/https?:\/\/[^\s<>"\]]+/g) ?? [];
/** The tokens of a mail's unsubscribe links: the footer's, and the List-Unsubscribe header's. */
const unsubscribeTokensOf = (mail: ParsedMail): (string | null)[] => {
  const header = mail.headerLines.find(({ key }) => key === 'list-unsubscribe')?.line ?? '';
  const urls = [
    ...hrefsOf(mail).filter((href) => href.includes('/newsletter/unsubscribe?')),
    ...(header.match(/<(https?:[^>]+)>/)?.slice(1) ?? []),
  ];
  expect(urls).toHaveLength(2);
  return urls.map((url) => new URL(url).searchParams.get('token'));
};

/** The site's subscription pages (French and Arabic below their prefix) and mail addresses. */
const isOurs = (url: string) =>
  (url.startsWith(TEST_SITE_URL) &&
    /^\/(?:(?:fr|ar)\/)?newsletter\//.test(url.slice(TEST_SITE_URL.length))) ||
  url.startsWith('mailto:');

function clickOf(url: string) {
  expect(url.startsWith(CLICK_PREFIX)).toBe(true);
  return verifyClickToken(TOKEN_KEY, url.slice(CLICK_PREFIX.length));
}

async function storedTracking(id: string) {
  const tracking = (await CampaignModel.findById(id).lean())?.tracking;
  if (!tracking?.key) throw new Error('the send stored no key');
  return { ...tracking, key: tracking.key };
}

const mailTo = (address: string) => {
  const received = smtp.received.find(({ envelopeTo }) => envelopeTo.includes(address));
  if (!received) throw new Error(`no mail to ${address}`);
  return received.mail;
};

async function sentCampaign(fields: Parameters<CampaignContext['queueCampaign']>[0] = {}) {
  await ctx.seedContacts([
    { email: 'amira@example.tn', firstName: 'Amira' },
    { email: 'claire@example.fr', firstName: 'Claire', locale: 'fr' },
  ]);
  await ctx.startWorker(smtp.url);
  const id = await ctx.queueCampaign({ recipientType: 'contacts', content: CONTENT, ...fields });
  await ctx.waitForStatus(id, ['sent']);
  return id;
}

describe("a tracked campaign's mail", () => {
  it('rewrites every web link of both parts to a verifying tracking link of its index, and leaves ours alone', async () => {
    const sentFrom = Math.floor(Date.now() / 1000) * 1000;
    const id = await sentCampaign({
      translations: [{ locale: 'fr', subject: 'Bonjour', content: CONTENT }],
    });
    const { key, links } = await storedTracking(id);
    expect(links).toEqual(TARGETS);

    for (const [address, locale] of [
      ['amira@example.tn', 'en'],
      ['claire@example.fr', 'fr'],
    ] as [string, Locale][]) {
      const mail = mailTo(address);
      const expected = {
        kind: 'click',
        campaignId: id,
        recipientKey: recipientKeyOf(key, address),
        locale,
        // A campaign to contacts: every recipient came from its first source.
        source: 0,
      };
      const hrefs = hrefsOf(mail);
      const tracked = hrefs.filter((href) => !isOurs(href)).map(clickOf);
      // The packs, the contact page, the packs again, then the trap (the text-only address has no href).
      expect(tracked.map((token) => token?.linkIndex)).toEqual([0, 1, 0, links.length]);
      for (const token of tracked) {
        expect(token).toMatchObject(expected);
        expect(token?.sentAt.getTime()).toBeGreaterThanOrEqual(sentFrom);
      }
      expect(hrefs).toContain('mailto:hello@agency.test');
      expect(hrefs).toContain(PREFERENCES);
      expect(
        hrefs.some((href) => href.startsWith(`${TEST_SITE_URL}/newsletter/unsubscribe?`)),
      ).toBe(true);
      // Leaving through either unsubscribe link counts in this campaign's report.
      for (const token of unsubscribeTokensOf(mail)) {
        expect(verifyUnsubscribeLink(token ?? '', TEST_LINK_SECRET)).toEqual({
          email: address,
          campaignId: id,
        });
      }

      const textUrls = textUrlsOf(mail);
      const textTokens = textUrls.filter((url) => !isOurs(url)).map(clickOf);
      expect(textTokens.map((token) => token?.linkIndex)).toEqual([0, 1, 2, 0]);
      for (const token of textTokens) expect(token).toMatchObject(expected);
      expect(textUrls).toContain(PREFERENCES);
      expect(mail.text).not.toMatch(/shop\.example|blog\.example/);
    }
  });

  it('closes the HTML with a pixel whose open token verifies, and a trap no person sees', async () => {
    const id = await sentCampaign();
    const { key, links } = await storedTracking(id);
    const openKeys = [];
    for (const address of ['amira@example.tn', 'claire@example.fr']) {
      const html = htmlOf(mailTo(address));
      const [pixel, ...others] = elementsNamed(html, 'img');
      expect(others).toEqual([]);
      expect(pixel?.attribs).toMatchObject({ width: '1', height: '1', alt: '' });
      const src = pixel?.attribs.src ?? '';
      expect(src.startsWith(OPEN_PREFIX)).toBe(true);
      const open = verifyOpenToken(TOKEN_KEY, src.slice(OPEN_PREFIX.length));
      expect(open).toMatchObject({ kind: 'open', campaignId: id, locale: 'en', source: 0 });
      expect(open?.recipientKey).toBe(recipientKeyOf(key, address));
      openKeys.push(open?.recipientKey);

      const trap = elementsNamed(html, 'a').find((link) => {
        const href = link.attribs.href ?? '';
        return href.startsWith(CLICK_PREFIX) && clickOf(href)?.linkIndex === links.length;
      });
      expect(trap?.attribs).toMatchObject({ 'aria-hidden': 'true', tabindex: '-1' });
      expect(trap?.attribs.style).toContain('display:none');
      expect(trap?.children).toEqual([]);
    }
    // Two recipients, two keys: unique counts tell them apart.
    expect(new Set(openKeys).size).toBe(2);
  });

  it('carries no pixel when opens are off, and no tracking link nor trap when clicks are', async () => {
    const id = await sentCampaign({ tracking: { opens: false, clicks: true } });
    const clicksOnly = mailTo('amira@example.tn');
    expect(elementsNamed(htmlOf(clicksOnly), 'img')).toEqual([]);
    expect(hrefsOf(clicksOnly).filter((href) => href.startsWith(CLICK_PREFIX))).toHaveLength(4);
    expect((await storedTracking(id)).links).toEqual(TARGETS);

    smtp.received.length = 0;
    const opensOnlyId = await ctx.queueCampaign({
      recipientType: 'contacts',
      content: CONTENT,
      tracking: { opens: true, clicks: false },
    });
    await ctx.waitForStatus(opensOnlyId, ['sent']);
    const opensOnly = mailTo('amira@example.tn');
    expect(hrefsOf(opensOnly).some((href) => href.startsWith(CLICK_PREFIX))).toBe(false);
    expect(hrefsOf(opensOnly)).toEqual(expect.arrayContaining(TARGETS.slice(0, 2)));
    expect(opensOnly.text).toContain('https://blog.example/spring');
    expect(elementsNamed(htmlOf(opensOnly), 'img')).toHaveLength(1);
    expect((await storedTracking(opensOnlyId)).links).toEqual([]);
  });

  it('tracks the first 1,000 distinct links of a campaign that holds 1,001', async () => {
    const content = Array.from(
      { length: 1001 },
      (_, index) => `<a href="https://shop.example/p/${index}">${index}</a>`,
    ).join(' ');
    await ctx.seedContacts([{ email: 'amira@example.tn', firstName: 'Amira' }]);
    await ctx.startWorker(smtp.url);
    const id = await ctx.queueCampaign({ recipientType: 'contacts', content });
    await ctx.waitForStatus(id, ['sent']);

    const { links } = await storedTracking(id);
    expect(links).toHaveLength(1000);
    expect(links.at(-1)).toBe('https://shop.example/p/999');
    const hrefs = hrefsOf(mailTo('amira@example.tn'));
    const indexes = hrefs.filter((href) => href.startsWith(CLICK_PREFIX)).map(clickOf);
    expect(indexes.map((token) => token?.linkIndex)).toEqual([
      ...Array.from({ length: 1000 }, (_, index) => index),
      1000,
    ]);
    expect(hrefs).toContain('https://shop.example/p/1000');
  });
});

describe("a tracked campaign's test send", () => {
  it('carries no tracking link, pixel nor trap, though the campaign has its key', async () => {
    await UserModel.create({
      username: 'boss',
      email: 'boss@agency.test',
      role: 'manager',
      passwordHash: 'not used here',
    });
    await ctx.startWorker(smtp.url);
    const id = await ctx.queueCampaign({ content: CONTENT, addDispatch: false });
    await CampaignModel.updateOne(
      { _id: id },
      { $set: { 'tracking.key': newCampaignTrackingKey(), 'tracking.links': TARGETS } },
    );

    await ctx.testQueue.add(QUEUE_NAMES.campaignTestSend, {
      campaignId: id,
      email: 'boss@agency.test',
      locale: 'en',
    });
    const { mail } = await smtp.waitFor(({ envelopeTo }) =>
      envelopeTo.includes('boss@agency.test'),
    );

    expect(hrefsOf(mail)).toEqual(expect.arrayContaining(TARGETS.slice(0, 2)));
    expect(hrefsOf(mail).some((href) => href.includes('/api/t/'))).toBe(false);
    expect(mail.text).not.toContain('/api/t/');
    expect(mail.text).toContain('https://blog.example/spring');
    expect(elementsNamed(htmlOf(mail), 'img')).toEqual([]);
  });

  it('is sent untracked by the messenger even when given the tracking', async () => {
    const messenger = createSmtpCampaignMessenger({
      transport: createCampaignTransport(smtp.url, 1),
      mailFrom: 'Agency <no-reply@agency.test>',
      siteUrl: TEST_SITE_URL,
      mailLinkSecret: TEST_LINK_SECRET,
    });
    const mail = {
      defaultLocale: 'en' as const,
      languages: { en: { subject: 'Hello', content: CONTENT } },
      template: DEFAULT_TEMPLATE,
    };
    const tracking = {
      campaignId: '0123456789abcdef01234567',
      key: newCampaignTrackingKey(),
      opens: true,
      clicks: true,
      links: TARGETS,
    };
    try {
      await messenger
        .prepare(mail, { test: true, tracking, campaignId: tracking.campaignId })
        .send(
          { email: 'boss@agency.test', firstName: 'Boss', locale: 'en' },
          '<test-1@agency.test>',
        );
      await messenger
        .prepare(mail, { tracking, campaignId: tracking.campaignId })
        .send(
          { email: 'amira@example.tn', firstName: 'Amira', locale: 'en' },
          '<sent-1@agency.test>',
        );
    } finally {
      await messenger.close();
    }
    const test = mailTo('boss@agency.test');
    expect(htmlOf(test)).not.toContain('/api/t/');
    expect(test.text).not.toContain('/api/t/');
    // Nor can a test's unsubscribe links count: they carry no token at all.
    expect(unsubscribeTokensOf(test)).toEqual([null, null]);
    expect(
      unsubscribeTokensOf(mailTo('amira@example.tn')).map(
        (token) => verifyUnsubscribeLink(token ?? '', TEST_LINK_SECRET)?.campaignId,
      ),
    ).toEqual([tracking.campaignId, tracking.campaignId]);
    // The same mail, not a test, is tracked.
    expect(htmlOf(mailTo('amira@example.tn'))).toContain(OPEN_PREFIX);
  });
});
