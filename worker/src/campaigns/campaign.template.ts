import { randomBytes } from 'node:crypto';
import { convert } from 'html-to-text';
import { DEFAULT_LOCALE, LOCALES, type Locale } from '@agency/contracts';
import { escapeHtml } from '../mail/templates/escape-html';
import { htmlDocument, type RenderedMail } from '../mail/templates/rendered-mail';
import { renderUnsubscribeFooter } from '../mail/templates/unsubscribe-footer.template';

/** What a campaign may say about its recipient: `{{firstName}}`, `{{email}}`. */
export interface Personalisation {
  firstName: string;
  email: string;
}

const PLACEHOLDER = /\{\{\s*(firstName|email)\s*\}\}/g;

/** Literal parts at even indexes, placeholder names at odd ones (what String.split gives). */
type Template = readonly string[];

function compile(source: string): Template {
  return source.split(PLACEHOLDER);
}

/** A slot filled as it is: the subject and the text body take values unescaped. */
export const asIs = (value: string) => value;

export function localeOf(value: string): Locale {
  return (LOCALES as readonly string[]).includes(value) ? (value as Locale) : DEFAULT_LOCALE;
}

/** What differs from one recipient's mail to the next inside its bodies. */
export type Slot = keyof Personalisation | 'unsubscribeUrl';
export type SlotValues = Record<Slot, string>;

/**
 * A placeholder that decides where a link leads: it stands where a URL
 * attribute's value starts its scheme. Anyone can choose their first name
 * through the contact form, so such a value is kept only when it is a web or
 * mail address; anything else (`javascript:`, `data:`) becomes `#`.
 */
const LINK_PREFIX = 'link-';
type SlotTag = Slot | `${typeof LINK_PREFIX}${Slot}`;

/** Attributes whose value a mail client may open or load as a URL. */
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
]);

/**
 * The attribute whose value `html` ends inside, if it ends inside a tag.
 * The content was sanitised when it was saved, which escapes every `<` and
 * `>` of text and of attribute values: the last `<` opens the tag.
 */
function openAttribute(html: string): { name: string; value: string } | undefined {
  const start = html.lastIndexOf('<');
  if (start < 0) return undefined;
  const tag = html.slice(start);
  let at = tag.search(/[\s/>]/);
  if (at < 0) return undefined;
  while (at < tag.length) {
    while (at < tag.length && /[\s/]/.test(tag[at] ?? '')) at++;
    if (tag[at] === '>') return undefined;
    const nameStart = at;
    while (at < tag.length && !/[\s=>/]/.test(tag[at] ?? '')) at++;
    const name = tag.slice(nameStart, at).toLowerCase();
    while (at < tag.length && /\s/.test(tag[at] ?? '')) at++;
    if (tag[at] !== '=') continue;
    at++;
    while (at < tag.length && /\s/.test(tag[at] ?? '')) at++;
    const quote = tag[at];
    if (quote === '"' || quote === "'") {
      const end = tag.indexOf(quote, at + 1);
      if (end < 0) return { name, value: tag.slice(at + 1) };
      at = end + 1;
    } else {
      const valueStart = at;
      while (at < tag.length && !/[\s>]/.test(tag[at] ?? '')) at++;
      if (at >= tag.length) return { name, value: tag.slice(valueStart) };
    }
  }
  return undefined;
}

/**
 * Whether the literal HTML before a placeholder leaves the URL's scheme to
 * it: inside a URL attribute, with nothing before it in the value that fixes
 * the scheme (a `:`, or a `/`, `?` or `#` that makes the rest a path).
 */
function opensLink(htmlBefore: string): boolean {
  const attribute = openAttribute(htmlBefore);
  if (!attribute || !URL_ATTRIBUTES.has(attribute.name)) return false;
  return !/[:/?#]/.test(attribute.value);
}

const SAFE_LINK = /^(https?:\/\/|mailto:)[^\s]/i;

/** A link's value as the recipient's data gives it: a web or mail address, else `#`. */
export function safeLink(value: string): string {
  const trimmed = value.trim();
  return SAFE_LINK.test(trimmed) ? trimmed : '#';
}

/** The value a body slot takes for this recipient, before the body's own escaping. */
export function slotValue(tag: string, values: SlotValues): string {
  if (tag.startsWith(LINK_PREFIX)) return safeLink(values[tag.slice(LINK_PREFIX.length) as Slot]);
  return values[tag as Slot];
}

/** The HTML template's slots, each tagged when it opens a link. */
function htmlSlotTags(template: Template): SlotTag[] {
  const tags: SlotTag[] = [];
  // Earlier placeholders stand as a letter, so a value after one is still seen as its value.
  let before = '';
  for (let index = 0; index < template.length; index++) {
    const part = template[index] ?? '';
    if (index % 2 === 0) {
      before += part;
      continue;
    }
    const slot = part as Slot;
    tags.push(opensLink(before) ? `${LINK_PREFIX}${slot}` : slot);
    before += 'x';
  }
  return tags;
}

/** A rendered body with its recipient's parts left open: literal text at even indexes, slot tags at odd ones. */
export type Segments = readonly string[];

/**
 * A campaign's bodies in one language, rendered once. Filling a slot takes
 * `slotValue(tag, values)`, HTML-escaped in the HTML: then the mail is
 * exactly what `render` makes for that recipient.
 */
export interface CampaignFrame {
  text: Segments;
  html: Segments;
}

export interface CompiledCampaignMail {
  render(locale: Locale, values: Personalisation, unsubscribeUrl: string): RenderedMail;
  subjectOf(values: Personalisation): string;
  frameOf(locale: Locale): CampaignFrame;
}

/**
 * Parses a campaign once (its placeholders, its text version) so each of its
 * thousands of mails is only string joins. Values go into the HTML escaped:
 * a contact named `<script>` stays text, and one named `javascript:…` never
 * becomes a link's address.
 */
export function compileCampaignMail(campaign: {
  subject: string;
  content: string;
}): CompiledCampaignMail {
  const subject = compile(campaign.subject);
  const html = compile(campaign.content);
  const htmlTags = htmlSlotTags(html);
  const text = compile(convert(campaign.content, { wordwrap: 78 }));

  const fillText = (template: Template, valueOf: (slot: Slot) => string) =>
    template.map((part, index) => (index % 2 === 0 ? part : valueOf(part as Slot))).join('');
  const fillHtml = (valueOf: (tag: SlotTag) => string) =>
    html
      .map((part, index) =>
        index % 2 === 0 ? part : escapeHtml(valueOf(htmlTags[(index - 1) / 2] as SlotTag)),
      )
      .join('');

  /** The whole mail, each slot filled by `valueOf`; the footer's link takes `unsubscribeUrl`. */
  function renderWith(
    locale: Locale,
    valueOf: (tag: SlotTag) => string,
    subjectValues: Personalisation,
  ): RenderedMail {
    const footer = renderUnsubscribeFooter(locale, valueOf('unsubscribeUrl'));
    const renderedSubject = fillText(
      subject,
      (slot) => subjectValues[slot as keyof Personalisation],
    );
    return {
      subject: renderedSubject,
      text: `${fillText(text, valueOf)}\n\n${footer.text}`,
      html: htmlDocument({
        locale,
        title: renderedSubject,
        bodyHtml: `${fillHtml(valueOf)}\n${footer.html}`,
      }),
    };
  }

  return {
    subjectOf: (values) => fillText(subject, (slot) => values[slot as keyof Personalisation]),
    render(locale, values, unsubscribeUrl) {
      const slots: SlotValues = { ...values, unsubscribeUrl };
      return renderWith(locale, (tag) => slotValue(tag, slots), values);
    },
    /**
     * Renders the mail once with a marker in each slot, then cuts the bodies
     * at the markers. The markers are private-use characters around a random
     * nonce, which HTML escaping leaves alone and no campaign can contain by
     * chance; each names its slot's tag.
     */
    frameOf(locale) {
      const nonce = randomBytes(8).toString('hex');
      const marker = (tag: string) => `\uE000${nonce}${tag}\uE001`;
      const rendered = renderWith(locale, marker, {
        firstName: marker('firstName'),
        email: marker('email'),
      });
      const markers = new RegExp(`\uE000${nonce}((?:${LINK_PREFIX})?[a-zA-Z]+)\uE001`);
      return { text: rendered.text.split(markers), html: rendered.html.split(markers) };
    },
  };
}
