import axe from 'axe-core';
import { JSDOM } from 'jsdom';
import { parseDocument, DomUtils } from 'htmlparser2';
import type { Element } from 'domhandler';
import { trapLinkHtml } from './trap-link.template';

const TRAP = '{{trapLink}}';

function elementsOf(html: string): Element[] {
  return DomUtils.findAll(() => true, parseDocument(html).children);
}

function styleOf(element: Element | undefined): string {
  return element?.attribs.style ?? '';
}

/** A mail as the campaign's is built: a language, a title, a link people read, and the trap. */
function mailWith(trap: string): string {
  return [
    '<!doctype html><html lang="en" dir="ltr"><head><meta charset="utf-8"><title>Spring</title></head>',
    '<body><main><p>Read <a href="https://a.test/">our packs</a>.</p>',
    trap,
    '</main></body></html>',
  ].join('');
}

/** The rules axe-core breaks on the mail, each with the markup it names. */
async function axeViolations(html: string): Promise<string[]> {
  const dom = new JSDOM(html, { runScripts: 'outside-only', pretendToBeVisual: true });
  dom.window.eval(axe.source);
  const run = dom.window.eval(
    'axe.run(document, { resultTypes: ["violations"], rules: { "color-contrast": { enabled: false } } })',
  ) as Promise<axe.AxeResults>;
  const results = await run;
  dom.window.close();
  return results.violations.flatMap((violation) =>
    violation.nodes.map((node) => `${violation.id}: ${node.html}`),
  );
}

describe('trapLinkHtml', () => {
  it('is a link to the given address, out of sight, of the accessibility tree and of the tab order', () => {
    const [wrapper, link, ...rest] = elementsOf(trapLinkHtml(TRAP));
    expect(rest).toEqual([]);
    expect(wrapper?.name).toBe('div');
    expect(wrapper?.attribs['aria-hidden']).toBe('true');
    expect(link?.name).toBe('a');
    expect(link?.attribs).toMatchObject({ href: TRAP, tabindex: '-1', 'aria-hidden': 'true' });
    for (const element of [wrapper, link]) {
      expect(styleOf(element)).toMatch(/(^|;)display:none(;|$)/);
      expect(styleOf(element)).toMatch(/(^|;)mso-hide:all(;|$)/);
      expect(styleOf(element)).toMatch(/(^|;)font-size:0(;|$)/);
    }
  });

  it('holds no text a screen reader could read', () => {
    expect(DomUtils.textContent(parseDocument(trapLinkHtml(TRAP)))).toBe('');
  });

  it('keeps any address inside its attribute: quotes and > cannot break out', () => {
    const hostile = `x" onclick="alert(1)'><script>alert(2)</script>`;
    const elements = elementsOf(trapLinkHtml(hostile));
    expect(elements.map((element) => element.name)).toEqual(['div', 'a']);
    expect(elements[1]?.attribs).toEqual({
      href: hostile,
      tabindex: '-1',
      'aria-hidden': 'true',
      style: styleOf(elements[1]),
    });
  });

  it('leaves a mail axe-core finds nothing in, where the same link shown would be flagged', async () => {
    expect(await axeViolations(mailWith(trapLinkHtml(TRAP)))).toEqual([]);
    const shown = `<a href="${TRAP}"></a>`;
    expect(await axeViolations(mailWith(shown))).toEqual([`link-name: ${shown}`]);
  });
});
