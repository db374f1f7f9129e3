import { campaignTemplateSchema, type CampaignTemplateInput } from '@agency/contracts';
import { compileCampaignMail, type CampaignMailTemplate } from '@agency/platform';
import fc from 'fast-check';
import { Parser } from 'htmlparser2';
import { ValidationError } from 'yup';
import { HttpError } from '../../errors';
import { templateFieldsOf } from './campaign-template.service';

/*
 * Random layouts and contents, through the validation a save runs and the
 * renderer a send runs: whatever is accepted must render into mail that a
 * client's parser reads without an event handler, a script element or a
 * script URL, however the content tries to break out of where it stands.
 */

const URL_ATTRIBUTES = new Set([
  'href',
  'src',
  'srcset',
  'action',
  'formaction',
  'background',
  'poster',
  'cite',
  'longdesc',
  'usemap',
  'xlink:href',
  'data',
  'dynsrc',
  'lowsrc',
]);
const RUNNING_ELEMENTS = new Set(['script', 'iframe', 'object', 'embed', 'svg', 'math', 'form']);
const SCRIPT_URL = /^(javascript|vbscript|data:text\/html)/i;

/** What in the HTML a mail client could run: handlers, script URLs, scripting elements. */
function runnableParts(html: string): string[] {
  const found: string[] = [];
  const parser = new Parser(
    {
      onopentagname(name) {
        if (RUNNING_ELEMENTS.has(name)) found.push(`<${name}>`);
      },
      onattribute(name, value) {
        if (name.startsWith('on')) found.push(`${name}="${value}"`);
        // Browsers skip whitespace and control characters in a scheme: so does the check.
        const squeezed = [...value].filter((char) => char.charCodeAt(0) > 0x20).join('');
        if (URL_ATTRIBUTES.has(name) && SCRIPT_URL.test(squeezed)) {
          found.push(`${name}="${value}"`);
        }
        if (name === 'style' && /javascript:|expression\(|url\(/i.test(squeezed)) {
          found.push(`${name}="${value}"`);
        }
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.end(html);
  return found;
}

const PLACEHOLDERS = [
  'content',
  'header',
  'footer',
  'brandColor',
  'backgroundColor',
  'textColor',
  'firstName',
  'lastName',
  'email',
  'unsubscribeUrl',
  'senderName',
];
/** The slots that take HTML come up most: they are the ones that can carry markup. */
const placeholderName = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom('content', 'header', 'footer') },
  { weight: 2, arbitrary: fc.constantFrom(...PLACEHOLDERS) },
);
const placeholder = placeholderName.chain((name) =>
  fc.oneof(
    { weight: 3, arbitrary: fc.constant(`{{${name}}}`) },
    { weight: 1, arbitrary: fc.constantFrom(`{{ ${name} }}`, `&#123;&#123;${name}}}`) },
  ),
);

/** Text that tries to close a quote or a tag, or spell a scheme with entities. */
const hostileText = fc.oneof(
  fc.constantFrom(
    '"',
    "'",
    '>',
    '<',
    '" onerror=alert(1) x="',
    "' onmouseover=alert(1) '",
    ' onload=alert(1) ',
    'javascript:alert(1)',
    'java&#x09;script:alert(1)',
    '&#106;avascript:alert(1)',
    'vbscript:msgbox(1)',
    'data:text/html,<script>alert(1)</script>',
    '&quot; onerror=alert(1) x=&quot;',
    '&#34;&#62;<img src=x onerror=alert(1)>',
    'https://ok.example/',
    'Hello',
  ),
  fc.string({ unit: fc.constantFrom('a', ' ', '"', "'", '<', '>', '=', '/', '&', '#', ';', ':') }),
);

const attributeName = fc.constantFrom(
  'alt',
  'title',
  'href',
  'src',
  'style',
  'bgcolor',
  'onclick',
  'class',
  'width',
);
const attributeValue = fc
  .array(fc.oneof({ weight: 1, arbitrary: hostileText }, { weight: 1, arbitrary: placeholder }), {
    maxLength: 3,
  })
  .map((parts) => parts.join(''));
const attribute = fc
  .tuple(attributeName, attributeValue, fc.constantFrom('"', "'", ''))
  .map(([name, value, quote]) => ` ${name}=${quote}${value}${quote}`);

const tagName = fc.constantFrom(
  'p',
  'td',
  'tr',
  'table',
  'a',
  'img',
  'div',
  'span',
  'h1',
  'script',
  'style',
  'title',
  'textarea',
  'svg',
);
const openTag = fc
  .tuple(tagName, fc.array(attribute, { maxLength: 3 }))
  .map(([name, attributes]) => `<${name}${attributes.join('')}>`);
const closeTag = tagName.map((name) => `</${name}>`);
const comment = fc
  .array(placeholder, { maxLength: 2 })
  .map((inside) => `<!-- ${inside.join('')} -->`);

const layoutToken = fc.oneof(
  { weight: 4, arbitrary: openTag },
  { weight: 3, arbitrary: closeTag },
  { weight: 3, arbitrary: placeholder },
  { weight: 2, arbitrary: hostileText },
  { weight: 1, arbitrary: comment },
);

/** A layout: random markup with `{{content}}` placed at a random token boundary. */
const layout = fc.tuple(fc.array(layoutToken, { maxLength: 12 }), fc.nat()).map(([tokens, at]) => {
  const where = tokens.length ? at % (tokens.length + 1) : 0;
  return [...tokens.slice(0, where), '{{content}}', ...tokens.slice(where)].join('');
});

const contentPiece = fc.oneof(
  fc.constantFrom(
    '<a title=" onmouseover=alert(1) onerror=alert(2) x=" href="https://ok.example/">offer</a>',
    '<img src="https://ok.example/a.png" onerror="alert(1)">',
    '<a href="javascript:alert(1)">x</a>',
    '<a href="jav&#x09;ascript:alert(1)">x</a>',
    '<a href="{{firstName}}">me</a>',
    '<img src="{{email}}" alt="{{firstName}}">',
    '<svg onload="alert(1)"></svg>',
    '<script>alert(1)</script>',
    '<p style="background:url(javascript:alert(1))">x</p>',
    '<iframe src="data:text/html,<script>alert(1)</script>"></iframe>',
    '<p>{{firstName}} &quot;quoted&quot;</p>',
    '"><img src=x onerror=alert(1)>',
  ),
  hostileText,
);
const content = fc
  .array(contentPiece, { minLength: 1, maxLength: 4 })
  .map((pieces) => pieces.join(''));
const colour = fc.constantFrom('#4f46e5', '#B45309', '#000000');
const recipientValue = fc.oneof(hostileText, fc.constant('Ada'));

const templateInput = fc.record({
  name: fc.constant('Property'),
  header: fc.oneof(fc.constant('<h1>{{senderName}}</h1>'), content),
  footer: fc.oneof(fc.constant('<p><a href="{{unsubscribeUrl}}">Leave</a></p>'), content),
  layout,
  brandColor: colour,
  backgroundColor: colour,
  textColor: colour,
});

/** The template as a save would store it, or undefined when the save is refused. */
function savedTemplate(input: unknown): CampaignMailTemplate | undefined {
  try {
    const valid: CampaignTemplateInput = campaignTemplateSchema.validateSync(input, {
      abortEarly: false,
      stripUnknown: true,
    });
    return templateFieldsOf(valid);
  } catch (error) {
    if (error instanceof ValidationError || error instanceof HttpError) return undefined;
    throw error;
  }
}

function renderedHtml(template: CampaignMailTemplate, body: string, names: string[]): string {
  const compiled = compileCampaignMail(
    {
      defaultLocale: 'en',
      languages: { en: { subject: 'Offer', content: body } },
      template,
    },
    { senderName: names[0] ?? 'Agency' },
  );
  return compiled.render(
    'en',
    { firstName: names[1] ?? '', lastName: names[2] ?? '', email: names[3] ?? '' },
    {
      unsubscribeUrl: 'https://agency.example/newsletter/unsubscribe?token=t',
      manageUrl: 'https://agency.example/newsletter/preferences?token=m',
    },
  ).html;
}

const recipient = fc.array(recipientValue, { minLength: 4, maxLength: 4 });

describe('campaign template layouts and contents (property)', () => {
  it('renders nothing runnable from any layout a save accepts, whatever the content', () => {
    let accepted = 0;
    fc.assert(
      fc.property(templateInput, content, recipient, (input, body, names) => {
        const template = savedTemplate(input);
        if (!template) return;
        accepted += 1;
        expect(runnableParts(renderedHtml(template, body, names))).toEqual([]);
      }),
      { numRuns: 250 },
    );
    // The generators must reach the renderer often enough for the property to say something.
    expect(accepted).toBeGreaterThan(30);
  });

  it('renders nothing runnable even from a layout stored before the rule, unchecked', () => {
    fc.assert(
      fc.property(templateInput, content, recipient, (input, body, names) => {
        const html = renderedHtml(
          { ...input, header: input.header, footer: input.footer },
          body,
          names,
        );
        expect(runnableParts(html)).toEqual([]);
      }),
      { numRuns: 150 },
    );
  });
});
