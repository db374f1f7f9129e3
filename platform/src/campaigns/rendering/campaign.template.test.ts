import fc from 'fast-check';
import { parseDocument } from 'htmlparser2';
import type { Element } from 'domhandler';
import { DEFAULT_TEMPLATE } from '@agency/contracts';
import { compileCampaignMail, safeLink, type CampaignMail } from './campaign.template';

const UNSUBSCRIBE = 'https://agency.tn/newsletter/unsubscribe?token=t';
const MANAGE = 'https://agency.tn/newsletter/preferences?token=m';
const LINKS = { unsubscribeUrl: UNSUBSCRIBE, manageUrl: MANAGE };

/** A campaign written in English only, in the built-in template. */
export function englishMail(subject: string, content: string): CampaignMail {
  return {
    defaultLocale: 'en',
    languages: { en: { subject, content } },
    template: DEFAULT_TEMPLATE,
  };
}

function bodyOf(content: string, firstName: string, email = 'amira@example.tn'): string {
  return compileCampaignMail(englishMail('Hello', content), { senderName: 'Agency' }).render(
    'en',
    { firstName, lastName: '', email },
    LINKS,
  ).html;
}

/** Every attribute a mail client may open or load, as the client reads it (entities decoded). */
function linksIn(html: string): string[] {
  const links: string[] = [];
  const visit = (node: { children?: unknown[] }) => {
    for (const child of (node.children ?? []) as Element[]) {
      for (const [name, value] of Object.entries(child.attribs ?? {})) {
        if (/^(href|src|srcset|action|formaction|background|poster|cite|longdesc)$/i.test(name)) {
          links.push(value);
        }
      }
      visit(child);
    }
  };
  visit(parseDocument(html));
  return links;
}

/**
 * What a browser or mail client takes for the scheme: leading spaces and
 * control characters are dropped, tabs and newlines removed anywhere.
 */
function schemeOf(link: string): string {
  // eslint-disable-next-line no-control-regex -- the characters a URL parser drops are the point
  const cleaned = link.replace(/^[\u0000-\u0020]+/, '').replace(/[\t\n\r]/g, '');
  return /^([a-z][a-z0-9+.-]*):/i.exec(cleaned)?.[1]?.toLowerCase() ?? '';
}

const SCRIPT_SCHEMES = ['javascript', 'data', 'vbscript'];

describe('a placeholder in a link of a campaign', () => {
  it('becomes the link when it is a web or mail address', () => {
    const html = bodyOf('<a href="{{firstName}}">Your page</a>', 'https://shop.example/amira');
    expect(linksIn(html)).toContain('https://shop.example/amira');
    expect(linksIn(bodyOf('<a href="{{email}}">Write</a>', 'x', 'mailto:a@b.tn'))).toContain(
      'mailto:a@b.tn',
    );
  });

  it.each([
    'javascript:alert(document.domain)',
    ' JavaScript:alert(1)',
    'data:text/html;base64,PHNjcmlwdD4=',
    'vbscript:msgbox(1)',
    'www.example.tn',
    '',
  ])('becomes # when a contact named %j would lead it anywhere else', (firstName) => {
    for (const content of [
      '<a href="{{firstName}}">x</a>',
      '<img src="{{firstName}}" alt="x">',
      '<a title="a b" href=" {{ firstName }}">x</a>',
    ]) {
      const links = linksIn(bodyOf(content, firstName)).filter(
        (link) => link !== UNSUBSCRIBE && link !== MANAGE,
      );
      expect(links.map((link) => link.trim())).toEqual(['#']);
    }
  });

  it('is left as text after a scheme or a path the campaign wrote itself', () => {
    const html = bodyOf(
      '<a href="https://agency.tn/welcome?name={{firstName}}">x</a><a href="/p/{{firstName}}">y</a>',
      'javascript:alert(1)',
    );
    expect(linksIn(html)).toEqual(
      expect.arrayContaining([
        'https://agency.tn/welcome?name=javascript:alert(1)',
        '/p/javascript:alert(1)',
      ]),
    );
  });

  it('keeps a placeholder in text as escaped text', () => {
    const html = bodyOf('<p>Dear {{firstName}}</p>', 'javascript:<b>x</b>');
    expect(html).toMatch(/<p style="[^"]*">Dear javascript:&lt;b&gt;x&lt;\/b&gt;<\/p>/);
  });

  it('keeps a web address and refuses every other scheme', () => {
    expect(safeLink(' https://a.tn/x ')).toBe('https://a.tn/x');
    expect(safeLink('http://a.tn')).toBe('http://a.tn');
    expect(safeLink('MAILTO:a@b.tn')).toBe('MAILTO:a@b.tn');
    expect(safeLink('https://')).toBe('#');
    expect(safeLink('javascript:https://a.tn')).toBe('#');
    expect(safeLink('ftp://a.tn')).toBe('#');
  });

  /**
   * Any name and address a visitor can type, through every position a
   * placeholder can take in a link of a campaign's HTML: no link the mail
   * holds may run script.
   */
  it('never yields a link that runs script, whatever the recipient is called', () => {
    const positions = [
      '<a href="{{firstName}}">x</a>',
      '<a href="{{email}}">x</a>',
      "<a href='{{firstName}}'>x</a>",
      '<a href={{firstName}}>x</a>',
      '<a href="  {{firstName}}">x</a>',
      '<a href="{{firstName}}{{email}}">x</a>',
      '<a href="java{{firstName}}">x</a>',
      '<a href="{{firstName}}:alert(1)">x</a>',
      '<a title="{{email}}" href="{{firstName}}">x</a>',
      '<a title="a>b" href="{{firstName}}">x</a>',
      '<img alt="" src="{{firstName}}">',
      '<table background="{{firstName}}"><tr><td>x</td></tr></table>',
      '<p>{{firstName}}</p><a href="{{email}}">x</a>',
    ];
    const hostile = fc.constantFrom(
      'javascript:alert(1)',
      'JAVASCRIPT:alert(1)',
      ' \tjavascript:alert(1)',
      'java\nscript:alert(1)',
      'java&#115;cript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'vbscript:x',
      'script:alert(1)',
      '"><a href="javascript:alert(1)">',
      "' onmouseover='alert(1)",
      ':alert(1)',
    );
    const anyName = fc.oneof(hostile, fc.string(), fc.string({ unit: 'grapheme', maxLength: 30 }));
    fc.assert(
      fc.property(fc.constantFrom(...positions), anyName, anyName, (content, firstName, email) => {
        for (const link of linksIn(bodyOf(content, firstName, email))) {
          expect(SCRIPT_SCHEMES).not.toContain(schemeOf(link));
        }
      }),
      { numRuns: 2000 },
    );
  });
});

describe('a layout stored before placeholders were kept to text', () => {
  /** The mail of a template whose layout puts the campaign's parts where this layout does. */
  function bodyIn(layout: string, content: string): string {
    const mail = englishMail('Hello', content);
    return compileCampaignMail(
      { ...mail, template: { ...DEFAULT_TEMPLATE, layout } },
      { senderName: 'Agency' },
    ).render('en', { firstName: 'Ada', lastName: '', email: 'ada@example.tn' }, LINKS).html;
  }

  it('puts the content in escaped where it stands in an attribute, and as HTML where it stands in text', () => {
    const html = bodyIn(
      '<p>{{content}}</p><img src="https://cdn.example/banner.png" alt="{{content}}">',
      '<a title=" onmouseover=alert(1) onerror=alert(2) x=" href="https://ok.example/">offer</a>',
    );
    const elements = parseDocument(html).children.flatMap(function all(node): Element[] {
      const element = node as Element;
      return [element, ...(element.children ?? []).flatMap(all)];
    });
    const img = elements.find((element) => element.name === 'img');
    expect(Object.keys(img?.attribs ?? {})).toEqual(['src', 'alt']);
    expect(img?.attribs.alt).toMatch(/^<a title=" onmouseover=alert\(1\)/);
    expect(elements.find((element) => element.name === 'a')?.attribs.href).toBe(
      'https://ok.example/',
    );
  });

  it('never makes a script link of content that stands in a link address', () => {
    const html = bodyIn('<p>{{content}}</p><a href="{{content}}">more</a>', 'javascript:alert(1)');
    expect(linksIn(html).map(schemeOf)).not.toContain('javascript');
    expect(html).toContain('<p>javascript:alert(1)</p>');
  });
});

describe("the footer's manage link", () => {
  const written: CampaignMail = {
    defaultLocale: 'en',
    languages: {
      en: { subject: 'Hello', content: '<p>Spring</p>' },
      fr: { subject: 'Bonjour', content: '<p>Printemps</p>' },
      ar: { subject: 'مرحبا', content: '<p>ربيع</p>' },
    },
    template: DEFAULT_TEMPLATE,
  };
  const person = { firstName: 'Ada', lastName: '', email: 'ada@example.tn' };

  it.each([
    ['en', 'Unsubscribe', 'Manage your subscription'],
    ['fr', 'Se désabonner', 'Gérer votre abonnement'],
    ['ar', 'إلغاء الاشتراك', 'إدارة اشتراكك'],
  ] as const)(
    "in %s, stands beside the unsubscribe link with the recipient's own address, in HTML and text",
    (locale, leave, manage) => {
      const links = {
        unsubscribeUrl: `https://agency.tn/newsletter/unsubscribe?token=u&lang=${locale}`,
        manageUrl: `https://agency.tn/${locale}/newsletter/preferences?token=m&lang=${locale}`,
      };
      const rendered = compileCampaignMail(written, { senderName: 'Agency' }).render(
        locale,
        person,
        links,
      );
      const href = (url: string) => url.replace(/&/g, '&amp;');

      expect(rendered.html).toContain(
        `<a href="${href(links.unsubscribeUrl)}">${leave}</a> · <a href="${href(links.manageUrl)}">${manage}</a>`,
      );
      expect(rendered.text).toContain(
        `${leave}: ${links.unsubscribeUrl}\n${manage}: ${links.manageUrl}`,
      );
    },
  );

  it("is compiled once per language as a slot: each mail fills in only the recipient's address", () => {
    const compiled = compileCampaignMail(written, { senderName: 'Agency' });
    const frame = compiled.frameOf('fr');
    // Odd indexes are the recipient's slots: the manage link is one of them, once per part.
    const slots = (segments: readonly string[]) => segments.filter((_, index) => index % 2 === 1);
    expect(slots(frame.html).filter((tag) => tag.endsWith('manageUrl'))).toHaveLength(1);
    expect(slots(frame.text).filter((tag) => tag === 'manageUrl')).toHaveLength(1);
    expect(frame.html.join('')).not.toContain('token=');

    const first = compiled.render('fr', person, { ...LINKS, manageUrl: `${MANAGE}1` });
    const second = compiled.render('fr', person, { ...LINKS, manageUrl: `${MANAGE}2` });
    expect(first.html.replaceAll(`${MANAGE}1`, `${MANAGE}2`)).toBe(second.html);
    expect(first.text.replaceAll(`${MANAGE}1`, `${MANAGE}2`)).toBe(second.text);
    // A subject has no links to fill.
    expect(compiled.subjectOf('fr', person)).toBe('Bonjour');
  });
});
