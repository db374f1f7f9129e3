import { elementsNamed } from '../../testing/html-elements';
import { DEFAULT_TEMPLATE } from '@agency/contracts';
import {
  campaignLinkTable,
  compileCampaignMail,
  slotValue,
  type CampaignMail,
  type MailTracking,
  type TrackingUrls,
} from './campaign.template';
import { escapeHtml } from '../../mail/escape-html';

const UNSUBSCRIBE = 'https://agency.tn/newsletter/unsubscribe?token=t';
const MANAGE = 'https://agency.tn/newsletter/preferences?token=m';
const LINKS = { unsubscribeUrl: UNSUBSCRIBE, manageUrl: MANAGE };
const SITE = 'https://agency.tn';
const PERSON = { firstName: 'Amira', lastName: '', email: 'amira@example.tn' };

const CONTENT =
  '<p>See <a href="https://shop.example/packs">the packs</a>, ' +
  '<a href="https://shop.example/contact?x=1&amp;y=2">write</a>, ' +
  '<a href="mailto:hello@agency.tn">mail us</a> or ' +
  '<a href="https://agency.tn/newsletter/preferences">your preferences</a>.</p>' +
  '<p>Again: <a href="https://shop.example/packs">packs</a></p>';

function mailOf(content = CONTENT): CampaignMail {
  return {
    defaultLocale: 'en',
    languages: { en: { subject: 'Hello', content } },
    template: DEFAULT_TEMPLATE,
  };
}

/** Each address names what it stands for, so a test reads which slot went where. */
const urls: TrackingUrls = {
  click: (index) => `https://t.test/c/${index}`,
  open: () => 'https://t.test/o',
};

function tracked(tracking: Partial<MailTracking> = {}, content = CONTENT) {
  const mail = mailOf(content);
  const { links } = campaignLinkTable(mail, { senderName: 'Agency', siteUrl: SITE });
  return compileCampaignMail(mail, {
    senderName: 'Agency',
    tracking: { opens: true, clicks: true, links, ...tracking },
  }).render('en', PERSON, LINKS, urls);
}

const hrefs = (html: string) => elementsNamed(html, 'a').map((a) => a.attribs.href);

describe("a campaign's link table from its mail", () => {
  it("lists the rendered mail's links in the locales' order, each language's HTML then text", () => {
    const mail: CampaignMail = {
      defaultLocale: 'fr',
      languages: {
        fr: { subject: 'Offres', content: '<p><a href="https://x.test/fr">fr</a></p>' },
        ar: { subject: 'عروض', content: '<p><a href="https://x.test/ar">ar</a></p>' },
        en: { subject: 'Offers', content: '<p>See https://x.test/en-text</p>' },
      },
      template: { ...DEFAULT_TEMPLATE, footer: '<a href="https://x.test/footer">Us</a>' },
    };
    expect(campaignLinkTable(mail, { senderName: 'A', siteUrl: SITE }).links).toEqual([
      // English first: its HTML (the template's footer), then its text.
      'https://x.test/footer',
      'https://x.test/en-text',
      'https://x.test/fr',
      'https://x.test/ar',
    ]);
  });
});

describe('a tracked campaign mail', () => {
  it('points every tracked link of the HTML and the text at its slot, and leaves the others', () => {
    const mail = tracked();
    expect(hrefs(mail.html)).toEqual([
      'https://t.test/c/0',
      'https://t.test/c/1',
      'mailto:hello@agency.tn',
      'https://agency.tn/newsletter/preferences',
      'https://t.test/c/0',
      UNSUBSCRIBE,
      // The recipient's own manage link, as it was given: never a tracked slot.
      MANAGE,
      // The trap, after the table's two links.
      'https://t.test/c/2',
    ]);
    expect(mail.text).toContain('the packs [https://t.test/c/0]');
    expect(mail.text).toMatch(/write\s+\[https:\/\/t\.test\/c\/1\]/);
    expect(mail.text).not.toContain('shop.example');
    expect(mail.text).toContain('https://agency.tn/newsletter/preferences');
    expect(mail.text).toContain(UNSUBSCRIBE);
    expect(mail.text).toContain(`Manage your subscription: ${MANAGE}`);
    expect(mail.text).not.toContain('t.test/o');
  });

  it('closes the body with a hidden trap link and a 1x1 pixel that takes no room', () => {
    const { html } = tracked();
    const [pixel, ...others] = elementsNamed(html, 'img');
    expect(others).toEqual([]);
    expect(pixel?.attribs).toMatchObject({
      src: 'https://t.test/o',
      width: '1',
      height: '1',
      alt: '',
      border: '0',
    });
    expect(pixel?.attribs.style).toContain('display:block;width:1px;height:1px;border:0');
    const trap = elementsNamed(html, 'a').at(-1);
    expect(trap?.attribs).toMatchObject({ tabindex: '-1', 'aria-hidden': 'true' });
    expect(trap?.attribs.style).toContain('display:none');
    expect(html).toMatch(/<img src="https:\/\/t\.test\/o"[^>]*>\n<\/body>/);
    expect(html.indexOf('https://t.test/c/2')).toBeGreaterThan(html.indexOf(UNSUBSCRIBE));
  });

  it('adds no pixel when opens are off, and rewrites nothing nor traps when clicks are', () => {
    const untracked = compileCampaignMail(mailOf(), { senderName: 'Agency' }).render(
      'en',
      PERSON,
      LINKS,
    );
    const clicksOnly = tracked({ opens: false });
    expect(elementsNamed(clicksOnly.html, 'img')).toEqual([]);
    expect(hrefs(clicksOnly.html)).toContain('https://t.test/c/2');

    const opensOnly = tracked({ clicks: false, links: [] });
    expect(hrefs(opensOnly.html)).toEqual(hrefs(untracked.html));
    expect(opensOnly.text).toBe(untracked.text);
    expect(elementsNamed(opensOnly.html, 'img')).toHaveLength(1);

    const neither = tracked({ opens: false, clicks: false });
    expect(neither).toEqual(untracked);
  });

  it('escapes a tracking address in the HTML as every value, and leaves it as it is in the text', () => {
    const odd: TrackingUrls = { click: () => 'https://t.test/"><b>&', open: () => '"&' };
    const mail = mailOf('<p><a href="https://shop.example/">shop</a> https://shop.example/</p>');
    const { links } = campaignLinkTable(mail, { senderName: 'Agency', siteUrl: SITE });
    const rendered = compileCampaignMail(mail, {
      senderName: 'Agency',
      tracking: { opens: true, clicks: true, links },
    }).render('en', PERSON, LINKS, odd);
    expect(rendered.html).toContain(`href="${escapeHtml('https://t.test/"><b>&')}"`);
    expect(rendered.html).toContain(`src="${escapeHtml('"&')}"`);
    expect(rendered.html).not.toContain('<b>');
    expect(rendered.text).toContain('https://t.test/"><b>&');
  });

  it('fills its frame, slot by slot, into exactly the mail render makes', () => {
    const mail = mailOf();
    const { links } = campaignLinkTable(mail, { senderName: 'Agency', siteUrl: SITE });
    const compiled = compileCampaignMail(mail, {
      senderName: 'Agency',
      tracking: { opens: true, clicks: true, links },
    });
    const frame = compiled.frameOf('en');
    const values = { ...PERSON, ...LINKS, tracking: urls };
    const fill = (segments: readonly string[], escape: (value: string) => string) =>
      segments
        .map((part, index) => (index % 2 === 0 ? part : escape(slotValue(part, values))))
        .join('');
    const rendered = compiled.render('en', PERSON, LINKS, urls);
    expect(fill(frame.html, escapeHtml)).toBe(rendered.html);
    expect(fill(frame.text, (value) => value)).toBe(rendered.text);
  });

  it('refuses to render without the recipient tracking addresses it needs', () => {
    const mail = mailOf();
    const compiled = compileCampaignMail(mail, {
      senderName: 'Agency',
      tracking: { opens: true, clicks: false, links: [] },
    });
    expect(() => compiled.render('en', PERSON, LINKS)).toThrow(/tracking addresses/);
  });

  it('tracks the first 1,000 distinct links and leaves the rest as written', () => {
    const content = Array.from(
      { length: 1001 },
      (_, index) => `<a href="https://shop.example/p/${index}">${index}</a>`,
    ).join(' ');
    const { html } = tracked({}, content);
    const links = hrefs(html);
    expect(links).toContain('https://t.test/c/999');
    expect(links).toContain('https://shop.example/p/1000');
    expect(links).not.toContain('https://shop.example/p/999');
    // The trap's index is the table's length.
    expect(links.at(-1)).toBe('https://t.test/c/1000');
  });
});
