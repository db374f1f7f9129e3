import fc from 'fast-check';
import { convert } from 'html-to-text';
import { emailSafeHtml } from '../rendering/campaign-html';
import {
  buildCampaignLinkTable,
  rewriteTrackedLinks,
  rewriteTrackedTextLinks,
  TRACKED_LINKS_MAX,
  TRACKED_URL_MAX_LENGTH,
  type CampaignLinkTable,
} from './link-table';

const SITE = { siteUrl: 'https://agency.test' };
const slot = (index: number) => `{{trackedLink:${index}}}`;
const tableOf = (html: string, text = '') => buildCampaignLinkTable([{ html, text }], SITE);
const anchor = (href: string) => `<a href="${href}">x</a>`;

describe('buildCampaignLinkTable', () => {
  it('keeps absolute web links and leaves every other kind out', () => {
    const html = [
      'https://agency.test/packs',
      'http://example.test/a',
      'mailto:hello@agency.test',
      'tel:+21600000000',
      '#top',
      '/relative/page',
      'relative.html',
      '//example.test/protocol-relative',
      'javascript:alert(1)',
      '&#106;avascript:alert(1)',
      ' javascript:alert(1)',
      '{{unsubscribeUrl}}',
      'https://example.test/?e={{email}}',
      'https://example.test/{{ firstName }}/x',
      'https://agency.test/newsletter/unsubscribe?token=a',
      'https://agency.test/NEWSLETTER/preferences',
      'https://agency.test/fr/newsletter/preferences?token=m&lang=fr',
      'https://agency.test/ar/Newsletter/unsubscribe',
      'https://agency.test/api/newsletter/unsubscribe',
      'https://other.test/newsletter/issue-4',
      'https://',
      'http:example.test/no-slashes',
      'https:\\\\example.test\\backslashes',
    ]
      .map(anchor)
      .join('');
    expect(tableOf(html).links).toEqual([
      'https://agency.test/packs',
      'http://example.test/a',
      'https://other.test/newsletter/issue-4',
    ]);
  });

  it('takes any host’s subscription paths for the site’s when no site address is set', () => {
    const html = anchor('https://example.test/newsletter/unsubscribe') + anchor('https://a.test/');
    expect(buildCampaignLinkTable([{ html, text: '' }], { siteUrl: '' }).links).toEqual([
      'https://a.test/',
    ]);
  });

  it('reads only the links a reader follows: a and area hrefs, the first of each element', () => {
    const html = [
      '<link href="https://style.test/s.css">',
      '<img src="https://img.test/i.png">',
      '<map><area href="https://area.test/" alt="a"></map>',
      '<a href="https://first.test/" href="https://second.test/">x</a>',
      '<a href>bare</a>',
      '<a name="https://name.test/">x</a>',
    ].join('');
    expect(tableOf(html).links).toEqual(['https://area.test/', 'https://first.test/']);
  });

  it('gives one index per distinct target, stable across repeats, languages and the text part', () => {
    const en = {
      html:
        anchor('https://a.test/one') + anchor('https://a.test/two') + anchor('https://a.test/one'),
      text: 'One [https://a.test/one] and https://a.test/three.',
    };
    const fr = {
      html: anchor('https://a.test/two') + anchor('https://a.test/four'),
      text: 'Deux [https://a.test/two]',
    };
    const table = buildCampaignLinkTable([en, fr], SITE);
    expect(table.links).toEqual([
      'https://a.test/one',
      'https://a.test/two',
      'https://a.test/three',
      'https://a.test/four',
    ]);
    expect(buildCampaignLinkTable([en, fr], SITE)).toEqual(table);
  });

  it('keys a link by the URL a browser opens: spellings of one address merge, queries stay apart', () => {
    const html = [
      'HTTPS://Agency.TEST',
      'https://agency.test/',
      'https://agency.test:443/',
      'https://agency.test/?a=1&amp;b=2',
      'https://agency.test/?b=2&amp;a=1',
      'https://agency.test/Path',
      'https://agency.test/path',
    ]
      .map(anchor)
      .join('');
    expect(tableOf(html).links).toEqual([
      'https://agency.test/',
      'https://agency.test/?a=1&b=2',
      'https://agency.test/?b=2&a=1',
      'https://agency.test/Path',
      'https://agency.test/path',
    ]);
  });

  it('stores the URL a browser would open: entities decoded, spaces around dropped', () => {
    const html =
      '<a href=" https://a.test/?utm_source=mail&amp;utm_medium=email&#38;x=&quot;q&quot; ">x</a>';
    expect(tableOf(html).links).toEqual([
      'https://a.test/?utm_source=mail&utm_medium=email&x=%22q%22',
    ]);
  });

  it('tracks at most TRACKED_LINKS_MAX distinct links and counts the rest as untracked', () => {
    const html = Array.from({ length: 3_000 }, (_, n) =>
      anchor(`https://a.test/${n % 1_500}`),
    ).join('\n');
    const table = tableOf(html);
    expect(table.links).toHaveLength(TRACKED_LINKS_MAX);
    expect(table.links.at(-1)).toBe(`https://a.test/${TRACKED_LINKS_MAX - 1}`);
    expect(table.untrackedOverLimit).toBe(1_500 - TRACKED_LINKS_MAX);
    const rewritten = rewriteTrackedLinks(html, table, slot);
    expect(rewritten).toContain(`<a href="{{trackedLink:999}}">`);
    expect(rewritten).toContain(anchor(`https://a.test/${TRACKED_LINKS_MAX}`));
  });

  it('leaves a URL longer than TRACKED_URL_MAX_LENGTH untracked', () => {
    const base = 'https://a.test/';
    const longest = base + 'x'.repeat(TRACKED_URL_MAX_LENGTH - base.length);
    const tooLong = `${longest}y`;
    expect(tableOf(anchor(longest) + anchor(tooLong)).links).toEqual([longest]);
  });
});

describe('rewriteTrackedLinks', () => {
  it('replaces only the value of each tracked href, keeping every other byte', () => {
    const html = [
      '<p class="x">Hello &amp; welcome</p>',
      '<a  HREF = \'https://a.test/one\' title="One &amp; only" style="color:red">One</a>',
      '<a href=https://a.test/two target=_blank>Two</a>',
      '<a href="mailto:a@agency.test">Mail</a>',
      '<a href="{{unsubscribeUrl}}">Unsubscribe</a>',
      '<!-- <a href="https://a.test/one">in a comment</a> -->',
      '<a\nhref="https://a.test/one"\n>Again</a>',
    ].join('\n');
    const table = tableOf(html);
    expect(table.links).toEqual(['https://a.test/one', 'https://a.test/two']);
    expect(rewriteTrackedLinks(html, table, slot)).toBe(
      [
        '<p class="x">Hello &amp; welcome</p>',
        '<a  HREF = "{{trackedLink:0}}" title="One &amp; only" style="color:red">One</a>',
        '<a href="{{trackedLink:1}}" target=_blank>Two</a>',
        '<a href="mailto:a@agency.test">Mail</a>',
        '<a href="{{unsubscribeUrl}}">Unsubscribe</a>',
        '<!-- <a href="https://a.test/one">in a comment</a> -->',
        '<a\nhref="{{trackedLink:0}}"\n>Again</a>',
      ].join('\n'),
    );
  });

  it('rewrites a link only when its target is in the table given', () => {
    const html = anchor('https://a.test/one') + anchor('https://a.test/two');
    const table: CampaignLinkTable = { links: ['https://a.test/two'], untrackedOverLimit: 0 };
    expect(rewriteTrackedLinks(html, table, slot)).toBe(
      anchor('https://a.test/one') + anchor('{{trackedLink:0}}'),
    );
  });

  it('never tracks a javascript: link, even one the table names', () => {
    const html = anchor('javascript:alert(1)') + anchor('java&#115;cript:alert(1)');
    const table: CampaignLinkTable = { links: ['javascript:alert(1)'], untrackedOverLimit: 0 };
    expect(rewriteTrackedLinks(html, table, slot)).toBe(html);
  });

  it('writes the new address as an escaped attribute value: quotes and > cannot break out', () => {
    const html = `${anchor('https://a.test/')}<p>after</p>`;
    const hostile = () => `x" onmouseover="alert(1)'><script>alert(2)</script>`;
    const rewritten = rewriteTrackedLinks(html, tableOf(html), hostile);
    expect(rewritten).toBe(
      '<a href="x&quot; onmouseover=&quot;alert(1)&#39;&gt;&lt;script&gt;alert(2)&lt;/script&gt;">x</a><p>after</p>',
    );
  });

  it('keeps a URL written with quotes and > inside its attribute', () => {
    const html = `<a href='https://a.test/?q="><b>' id=k>x</a>`;
    const table = tableOf(html);
    expect(table.links).toEqual(['https://a.test/?q=%22%3E%3Cb%3E']);
    expect(rewriteTrackedLinks(html, table, slot)).toBe('<a href="{{trackedLink:0}}" id=k>x</a>');
  });

  it('keeps the HTML outside tracked hrefs byte for byte, whatever the links (property)', () => {
    const address = fc.oneof(
      fc.webUrl({ withQueryParameters: true, withFragments: true }),
      fc.constantFrom('mailto:a@b.test', '#top', '/page', '{{unsubscribeUrl}}', 'javascript:x()'),
      fc.webPath(),
    );
    const filler = fc.string({ maxLength: 20 }).map((text) => text.replace(/[<&>]/g, ' '));
    fc.assert(
      fc.property(fc.array(fc.tuple(filler, address, filler), { maxLength: 30 }), (links) => {
        const attribute = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
        const html = links
          .map(
            ([before, href, label]) =>
              `${before}<a class="c" href="${attribute(href)}" rel="r">${label}</a>`,
          )
          .join('');
        const table = tableOf(html);
        const rewritten = rewriteTrackedLinks(html, table, slot);
        const expected = links
          .map(([before, href, label]) => {
            const web = /^https?:\/\//i.test(href);
            const index = web ? table.links.indexOf(new URL(href).href) : -1;
            expect(index >= 0).toBe(web);
            return `${before}<a class="c" href="${web ? slot(index) : attribute(href)}" rel="r">${label}</a>`;
          })
          .join('');
        expect(rewritten).toBe(expected);
      }),
    );
  });
});

describe('rewriteTrackedTextLinks', () => {
  it('rewrites URLs as html-to-text writes links and as authors type them', () => {
    const text = [
      'Read our post [https://a.test/post?a=1&b=2], or mail [hello@agency.test].',
      'See https://a.test/post?a=1&b=2. Also (https://a.test/wiki/Foo_(bar)), and <https://a.test/x>!',
      'Unsubscribe: {{unsubscribeUrl}} or https://a.test/?e={{email}} or https://a.test/{{ email }} or https://agency.test/newsletter/unsubscribe',
    ].join('\n');
    const table = buildCampaignLinkTable([{ html: '', text }], SITE);
    expect(table.links).toEqual([
      'https://a.test/post?a=1&b=2',
      'https://a.test/wiki/Foo_(bar)',
      'https://a.test/x',
    ]);
    expect(rewriteTrackedTextLinks(text, table, slot)).toBe(
      [
        'Read our post [{{trackedLink:0}}], or mail [hello@agency.test].',
        'See {{trackedLink:0}}. Also ({{trackedLink:1}}), and <{{trackedLink:2}}>!',
        'Unsubscribe: {{unsubscribeUrl}} or https://a.test/?e={{email}} or https://a.test/{{ email }} or https://agency.test/newsletter/unsubscribe',
      ].join('\n'),
    );
  });

  it('changes nothing but the tracked URLs of a text, whatever surrounds them (property)', () => {
    const url = fc
      .webUrl({ withQueryParameters: true })
      .map((address) => new URL(address).href)
      .filter((address) => !/[.,;:!?'*)\]]$/.test(address));
    const prose = fc.constantFrom(
      ' ',
      '\n',
      ' and ',
      '. ',
      ' [',
      '] ',
      ' (',
      '), ',
      'mailto:a@b.test ',
    );
    fc.assert(
      fc.property(fc.array(fc.tuple(prose, url, prose), { maxLength: 20 }), (parts) => {
        const text = parts.map((part) => part.join(' ')).join('');
        const table = buildCampaignLinkTable([{ html: '', text }], SITE);
        expect(table.links).toEqual([...new Set(parts.map(([, address]) => address))]);
        const rewritten = rewriteTrackedTextLinks(text, table, slot);
        expect(rewritten).not.toMatch(/https?:/);
        const filled = rewritten.replace(
          /\{\{trackedLink:(\d+)\}\}/g,
          (_, index: string) => table.links[Number(index)] ?? '',
        );
        expect(filled).toBe(text);
      }),
    );
  });

  it('finds in the text part the same links as in the HTML it is made from', () => {
    const html = emailSafeHtml(
      '<p>Book <a href="https://a.test/book?x=1&amp;y=2">a call</a> or <a href="mailto:a@b.test">write</a>.</p><table data-button=""><tr><td data-button=""><a data-button="" href="https://a.test/packs">Packs</a></td></tr></table>',
      { brandColor: '#4f46e5', textColor: '#1f2937' },
    );
    const text = convert(html, { wordwrap: 78 });
    const table = buildCampaignLinkTable([{ html, text }], SITE);
    expect(table.links).toEqual(['https://a.test/book?x=1&y=2', 'https://a.test/packs']);
    const rewritten = rewriteTrackedTextLinks(text, table, slot);
    expect(rewritten).toContain('a call [{{trackedLink:0}}]');
    expect(rewritten).toContain('Packs [{{trackedLink:1}}]');
    expect(rewritten).not.toContain('https://');
  });
});
