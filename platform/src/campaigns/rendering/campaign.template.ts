import { convert, type HtmlToTextOptions } from 'html-to-text';
import {
  decodeHtmlText,
  directionOf,
  fallbacksOf,
  isFallbackVariable,
  isLocale,
  parsePlaceholders,
  type AgencyLanguageTexts,
  placeholderSites,
  type CampaignLanguages,
  type CampaignTemplateInput,
  type Locale,
  LOCALES,
} from '@agency/contracts';
import { escapeHtml } from '../../mail/escape-html';
import type { RenderedMail } from '../../mail/rendered-mail';
import { renderUnsubscribeFooter } from '../../mail/unsubscribe-footer.template';
import {
  buildCampaignLinkTable,
  rewriteTrackedLinks,
  rewriteTrackedTextLinks,
  type CampaignLinkTable,
} from '../tracking/link-table';
import { trapLinkHtml } from '../tracking/trap-link.template';
import { emailSafeHtml, sanitizeMailLayout, sanitizeTemplateLayout } from './campaign-html';

/** What a campaign may say about its recipient: `{{firstName}}`, `{{lastName}}`, `{{email}}`. */
export interface Personalisation {
  firstName: string;
  lastName: string;
  email: string;
}

/**
 * A recipient's own tracking addresses in a tracked mail: the click URL of
 * each link of the campaign's table (its index; the table's length is the
 * trap link) and the open pixel's URL. The worker gives them, signing each
 * recipient's tokens.
 */
export interface TrackingUrls {
  click(linkIndex: number): string;
  open(): string;
}

/**
 * A recipient's own links in the footer: the unsubscribe page and the
 * preference page ("Manage your subscription"), each with a token signed for
 * their address. The footer is compiled once per language with both as
 * slots; only these addresses change from one mail to the next.
 */
export interface RecipientLinks {
  unsubscribeUrl: string;
  manageUrl: string;
}

/** What differs from one recipient's mail to the next. */
export type Slot = keyof Personalisation | keyof RecipientLinks;
export type SlotValues = Record<Slot, string> & {
  /** A tracked mail's addresses; a mail compiled without tracking has no slot that asks. */
  tracking?: TrackingUrls;
};

/** A tracked link's slot, by its index in the link table: `{{trackedLink:3}}`. */
const TRACKED_LINK = 'trackedLink:';
/** The open pixel's address. */
const OPEN_PIXEL = 'openPixel';

/**
 * A recipient's slot as `withFallbacks` writes it: its name, then its fallback
 * URI-encoded after a `|` (`{{firstName|%C3%A0%20vous}}`). Encoded, a
 * fallback has no space for the text version's line wrapping to break at,
 * and nothing the HTML sanitiser or escaping would change. The tracking
 * slots and the manage link's are the compile step's own: a campaign's texts
 * may not name them (the editor's checks refuse any other name).
 */
const SLOT =
  /\{\{\s*((?:firstName|lastName|email|unsubscribeUrl|manageUrl)(?:\|[\w%.-]*)?|trackedLink:\d{1,4}|openPixel)\s*\}\}/g;

const trackedLinkSlot = (index: number) => `{{${TRACKED_LINK}${index}}}`;
const isTrackingSlot = (slot: string) => slot.startsWith(TRACKED_LINK) || slot === OPEN_PIXEL;

/** What URI-encoding leaves as it is but HTML could read: `'` and friends, encoded too. */
const encodeFallback = (fallback: string) =>
  encodeURIComponent(fallback).replace(
    /[!'()*~]/g,
    (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`,
  );

/** Whether only spaces stand between two placeholders: `{{firstName}} {{lastName}}` is one name. */
const onlySpaces = (between: string) => /^(?:\s|&nbsp;|&#160;|\u00a0)*$/.test(between);

/**
 * The source with each recipient placeholder written as its slot: with its
 * own fallback (decoded from HTML when the source is HTML), or with the
 * campaign's default for the language, so a recipient without the value
 * never reads a hole ("Dear ,"). A last name right after a first name takes
 * no default: "Dear Ada" or "Dear there" read right, "Dear Ada there" would not.
 */
export function withFallbacks(source: string, html: boolean, defaultFallback: string): string {
  let written = '';
  let from = 0;
  let previous: { name: string; end: number } | undefined;
  for (const placeholder of parsePlaceholders(source)) {
    const { name, start, end } = placeholder;
    if (!isFallbackVariable(name)) continue;
    let fallback =
      placeholder.fallback === undefined
        ? defaultFallback
        : html
          ? decodeHtmlText(placeholder.fallback)
          : placeholder.fallback;
    const completesName =
      name === 'lastName' &&
      previous?.name === 'firstName' &&
      onlySpaces(source.slice(previous.end, start));
    if (placeholder.fallback === undefined && completesName) fallback = '';
    written +=
      source.slice(from, start) +
      (fallback ? `{{${name}|${encodeFallback(fallback)}}}` : `{{${name}}}`);
    from = end;
    previous = { name, end };
  }
  return written + source.slice(from);
}

/** Literal parts at even indexes, slot names at odd ones (what String.split gives). */
type Template = readonly string[];

function compile(source: string): Template {
  return source.split(SLOT);
}

/** A slot filled as it is: the subject and the text body take values unescaped. */
export const asIs = (value: string) => value;

/** A template as a campaign's mail uses it: its parts and colours. */
export type CampaignMailTemplate = Pick<
  CampaignTemplateInput,
  'header' | 'footer' | 'layout' | 'brandColor' | 'backgroundColor' | 'textColor'
>;

/** The agency's own words around every campaign mail (its settings), per language. */
export interface AgencyMailTexts {
  /** `agencyName` is `{{senderName}}`; `header` closes the header, `footer` opens the footer. */
  languages: Record<Locale, AgencyLanguageTexts>;
  /** Commercial mail must say where the sender is: it closes the footer in every language. */
  postalAddress: string;
}

/** Who a campaign's mail is from, and where replies go. */
export interface CampaignMailSender {
  from: string;
  replyTo: string;
}

/** Everything a campaign's mail is made of, as the store holds it. */
export interface CampaignMail {
  defaultLocale: Locale;
  /** What a placeholder without its own fallback says, per language; the shipped defaults where unset. */
  placeholderFallbacks?: Partial<Record<Locale, string>> | null;
  /** The default language's subject and content, and those of the others written. */
  languages: CampaignLanguages;
  template: CampaignMailTemplate;
  /** The agency's texts; without them the mail has only the template's. */
  agency?: AgencyMailTexts;
  /** The campaign's From and Reply-To; without them the process's own From. */
  sender?: CampaignMailSender;
}

/**
 * A placeholder that decides where a link leads: it stands where a URL
 * attribute's value starts its scheme. Anyone can choose their first name
 * through the contact form, so such a value is kept only when it is a web or
 * mail address; anything else (`javascript:`, `data:`) becomes `#`.
 */
const LINK_PREFIX = 'link-';

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
 * The content was sanitised, which escapes every `<` and `>` of text and of
 * attribute values: the last `<` opens the tag.
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

/** How the recipient's value of a slot is read, or its fallback when they have none. */
function valueOrFallbackOf(slot: string): (values: SlotValues) => string {
  const bar = slot.indexOf('|');
  if (bar < 0) return (values) => values[slot as Slot] ?? '';
  const name = slot.slice(0, bar) as Slot;
  const fallback = slot.slice(bar + 1);
  return (values) => {
    const own = values[name] ?? '';
    // Decoded only when needed: a fallback no recipient needs never fails.
    return own.trim() !== '' ? own : decodeURIComponent(fallback);
  };
}

/** The recipient's tracking addresses: only a mail compiled with tracking asks, and then they are given. */
function trackingOf(values: SlotValues): TrackingUrls {
  if (!values.tracking) throw new Error('A tracked mail is rendered with its tracking addresses');
  return values.tracking;
}

/** The value a slot takes for this recipient, before the body's own escaping. */
export function slotValue(tag: string, values: SlotValues): string {
  return slotReaderOf(tag)(values);
}

/**
 * How a slot's value is read from each recipient's values (`slotValue`),
 * its tag read once: a campaign reads its slots for every mail.
 */
export function slotReaderOf(tag: string): (values: SlotValues) => string {
  if (tag.startsWith(LINK_PREFIX)) {
    const read = valueOrFallbackOf(tag.slice(LINK_PREFIX.length));
    return (values) => safeLink(read(values));
  }
  if (tag.startsWith(TRACKED_LINK)) {
    const linkIndex = Number(tag.slice(TRACKED_LINK.length));
    return (values) => trackingOf(values).click(linkIndex);
  }
  if (tag === OPEN_PIXEL) return (values) => trackingOf(values).open();
  return valueOrFallbackOf(tag);
}

/**
 * The HTML template with each slot named by its tag: `link-` when a
 * recipient's value opens a link. A tracking slot keeps its name: its value
 * is an address of ours, never the recipient's.
 */
function tagSlots(template: Template): Template {
  // Earlier placeholders stand as a letter, so a value after one is still seen as its value.
  let before = '';
  return template.map((part, index) => {
    if (index % 2 === 0) {
      before += part;
      return part;
    }
    const tag = !isTrackingSlot(part) && opensLink(before) ? `${LINK_PREFIX}${part}` : part;
    before += 'x';
    return tag;
  });
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
  /** The language a recipient reads: their stored one when the campaign has it, else its default. */
  localeFor(storedLocale: string | undefined): Locale;
  /** `tracking`: the recipient's addresses, which a mail compiled with tracking needs. */
  render(
    locale: Locale,
    values: Personalisation,
    links: RecipientLinks,
    tracking?: TrackingUrls,
  ): RenderedMail;
  subjectOf(locale: Locale, values: Personalisation): string;
  frameOf(locale: Locale): CampaignFrame;
}

/** Headings keep their case (a placeholder in one must stay a placeholder), tables read as text. */
const TEXT_OPTIONS: HtmlToTextOptions = {
  wordwrap: 78,
  selectors: [
    ...['h1', 'h2', 'h3', 'h4', 'h5', 'h6'].map((selector) => ({
      selector,
      options: { uppercase: false },
    })),
    { selector: 'table', format: 'dataTable', options: { uppercaseHeaderCells: false } },
    { selector: 'img', format: 'skip' },
  ],
};

/** The plain-text part of an HTML fragment; empty for an empty one. */
function textOf(html: string): string {
  return html.trim() ? convert(html, TEXT_OPTIONS).trim() : '';
}

/** Phones get the full width and a narrower margin; desktops a 600 px column. */
const RESPONSIVE_STYLE =
  '@media only screen and (max-width:620px){.mail-container{width:100% !important}.mail-pad{padding:20px 16px !important}}';

function replaceSlot(html: string, slot: string, value: string): string {
  return html.replace(new RegExp(`\\{\\{\\s*${slot}\\s*\\}\\}`, 'g'), () => value);
}

/** What a template's layout places: its parts (HTML) and its colours (values). */
type LayoutValues = Record<'header' | 'footer' | 'content', string> &
  Record<'brandColor' | 'backgroundColor' | 'textColor', string>;

const LAYOUT_HTML_SLOTS: ReadonlySet<string> = new Set(['header', 'footer', 'content']);

/**
 * The layout with its own slots filled, each where it stands in one pass, so
 * nothing a part says is taken for a slot. A part's HTML goes only where
 * the layout has text; anywhere else (an attribute, which a layout saved
 * before the rule could hold) it goes in escaped, as the attribute's text,
 * and cannot close the quote. The recipient's slots stay for `render`.
 */
function fillLayout(layout: string, values: LayoutValues): string {
  let filled = '';
  let from = 0;
  for (const site of placeholderSites(layout)) {
    if (!Object.hasOwn(values, site.name)) continue;
    const value = values[site.name as keyof LayoutValues];
    const asHtml = LAYOUT_HTML_SLOTS.has(site.name) && site.place.kind === 'text';
    filled += layout.slice(from, site.start) + (asHtml ? value : escapeHtml(value));
    from = site.end;
  }
  return filled + layout.slice(from);
}

interface LanguageSources {
  subject: string;
  html: string;
  text: string;
}

/** The agency's line under the header, in this language, as a paragraph; empty when unset. */
function agencyHeader(agency: AgencyMailTexts | undefined, locale: Locale): string {
  const header = agency?.languages[locale].header.trim();
  return header ? `<p>${escapeHtml(header)}</p>` : '';
}

/** The agency's footer text and postal address, in this language, as paragraphs. */
function agencyFooter(agency: AgencyMailTexts | undefined, locale: Locale): string {
  if (!agency) return '';
  return [agency.languages[locale].footer, agency.postalAddress]
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => `<p style="font-size:12px;color:#6b7280">${escapeHtml(part)}</p>`)
    .join('\n');
}

/**
 * The whole mail around its filled layout: the document's language and
 * direction, the responsive style, and the 600 px container table that mail
 * clients without CSS still lay out.
 */
function mailDocument(
  locale: Locale,
  subject: string,
  template: Pick<CampaignMail['template'], 'backgroundColor' | 'textColor'>,
  layout: string,
): string {
  const dir = directionOf(locale);
  const align = dir === 'rtl' ? 'right' : 'left';
  const background = template.backgroundColor;
  return [
    '<!doctype html>',
    `<html lang="${locale}" dir="${dir}">`,
    '<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(subject)}</title>`,
    `<style>${RESPONSIVE_STYLE}</style></head>`,
    `<body dir="${dir}" style="margin:0;padding:0;background-color:${background};font-family:Arial,Helvetica,sans-serif;color:${template.textColor}">`,
    `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" bgcolor="${background}" style="background-color:${background}"><tr><td align="center" style="padding:24px 12px">`,
    `<table role="presentation" class="mail-container" width="600" cellpadding="0" cellspacing="0" border="0" dir="${dir}" style="width:600px;max-width:600px"><tr><td dir="${dir}" align="${align}" style="text-align:${align}">`,
    layout,
    '</td></tr></table>',
    '</td></tr></table>',
    '</body>',
    '</html>',
  ].join('\n');
}

/**
 * One language's mail with its recipient's values left as placeholders: the
 * template's layout around the content, every part styled for mail clients,
 * the localised unsubscribe and manage links closing the footer, in a
 * document whose language and direction are the mail's (Arabic right to
 * left, aligned right).
 */
function languageSources(
  mail: CampaignMail,
  locale: Locale,
  fallbackName: string,
): LanguageSources {
  const { agency } = mail;
  // The header names the agency as it is called in the recipient's language.
  const senderName = agency?.languages[locale].agencyName || fallbackName;
  const fallback = fallbacksOf(mail.placeholderFallbacks)[locale];
  const template = {
    ...mail.template,
    header: withFallbacks(mail.template.header, true, fallback),
    footer: withFallbacks(mail.template.footer, true, fallback),
    layout: withFallbacks(mail.template.layout, true, fallback),
  };
  const written = mail.languages[locale] ?? mail.languages[mail.defaultLocale];
  const subject = replaceSlot(
    withFallbacks(written?.subject ?? '', false, fallback),
    'senderName',
    senderName,
  );
  const withSender = (html: string) => replaceSlot(html, 'senderName', escapeHtml(senderName));
  const colours = { brandColor: template.brandColor, textColor: template.textColor };
  const content = emailSafeHtml(
    withSender(withFallbacks(written?.content ?? '', true, fallback)),
    colours,
  );
  const header = [emailSafeHtml(withSender(template.header), colours), agencyHeader(agency, locale)]
    .filter(Boolean)
    .join('\n');
  const unsubscribe = renderUnsubscribeFooter(locale, '{{unsubscribeUrl}}', '{{manageUrl}}');
  const agencyFooterHtml = agencyFooter(agency, locale);
  const footer = [
    emailSafeHtml(withSender(template.footer), colours),
    agencyFooterHtml,
    unsubscribe.html,
  ]
    .filter(Boolean)
    .join('\n');

  const layout = sanitizeMailLayout(
    fillLayout(sanitizeTemplateLayout(withSender(template.layout)), {
      header,
      footer,
      content,
      brandColor: template.brandColor,
      backgroundColor: template.backgroundColor,
      textColor: template.textColor,
    }),
  );

  const html = mailDocument(locale, subject, template, layout);

  const text = [
    textOf(header),
    textOf(content),
    textOf(emailSafeHtml(withSender(template.footer), colours)),
    textOf(agencyFooterHtml),
    unsubscribe.text,
  ]
    .filter(Boolean)
    .join('\n\n');
  return { subject, html, text };
}

/** The languages a campaign is written in, in the locales' order (the link table's order). */
function writtenLocales(mail: CampaignMail): Locale[] {
  return LOCALES.filter((locale) => mail.languages[locale] !== undefined);
}

/**
 * The campaign's link table: every trackable link of every language it is
 * written in, as its mail renders them (template, header and footer
 * included), each language's HTML then its text. Built once, when the send
 * starts, and stored: the mail is then compiled with it.
 */
export function campaignLinkTable(
  mail: CampaignMail,
  options: { senderName: string; siteUrl: string },
): CampaignLinkTable {
  const sources = writtenLocales(mail).map((locale) =>
    languageSources(mail, locale, options.senderName),
  );
  return buildCampaignLinkTable(sources, { siteUrl: options.siteUrl });
}

/** What a campaign's mail tracks, and the link table its send stored. */
export interface MailTracking {
  opens: boolean;
  clicks: boolean;
  links: readonly string[];
}

/**
 * The open pixel: a 1x1 image with an empty text, so screen readers skip it;
 * a block of its own size with no border, margin or padding, after the
 * mail's layout, so nothing moves.
 */
const OPEN_PIXEL_HTML = `<img src="{{${OPEN_PIXEL}}}" width="1" height="1" alt="" border="0" style="display:block;width:1px;height:1px;border:0;margin:0;padding:0">`;

/** The HTML with `closing` put just before the body ends. */
function closingBody(html: string, closing: string): string {
  const end = html.lastIndexOf('</body>');
  return `${html.slice(0, end)}${closing}\n${html.slice(end)}`;
}

/**
 * One language's mail made trackable: each tracked link of the HTML and the
 * text becomes its slot (clicks), the trap link (its index is the table's
 * length) and the open pixel close the body. The recipient's addresses fill
 * the slots, so each language is rewritten once.
 */
function withTracking(sources: LanguageSources, tracking: MailTracking): LanguageSources {
  const { opens, clicks } = tracking;
  if (!opens && !clicks) return sources;
  const table = { links: tracking.links, untrackedOverLimit: 0 };
  const closing = [
    clicks ? trapLinkHtml(trackedLinkSlot(tracking.links.length)) : '',
    opens ? OPEN_PIXEL_HTML : '',
  ].join('');
  return {
    subject: sources.subject,
    html: closingBody(
      clicks ? rewriteTrackedLinks(sources.html, table, trackedLinkSlot) : sources.html,
      closing,
    ),
    text: clicks ? rewriteTrackedTextLinks(sources.text, table, trackedLinkSlot) : sources.text,
  };
}

interface CompiledLanguage {
  subject: Template;
  html: Template;
  text: Template;
}

function fill(template: Template, valueOf: (slot: string) => string): string {
  return template.map((part, index) => (index % 2 === 0 ? part : valueOf(part))).join('');
}

/** A subject has no links: its slots are the recipient's values alone. */
const NO_LINKS: RecipientLinks = { unsubscribeUrl: '', manageUrl: '' };

/**
 * Builds each language's mail once (the template around it, its styles, its
 * text version) and parses its placeholders, so each of thousands of mails
 * is only string joins. Values go into the HTML escaped: a contact named
 * `<script>` stays text, and one named `javascript:…` never becomes a link's
 * address. The preview renders with this same code.
 */
export function compileCampaignMail(
  mail: CampaignMail,
  options: { senderName: string; tracking?: MailTracking },
): CompiledCampaignMail {
  const languages = new Map<Locale, CompiledLanguage>();
  const compiled = (locale: Locale): CompiledLanguage => {
    let language = languages.get(locale);
    if (!language) {
      const rendered = languageSources(mail, locale, options.senderName);
      const sources = options.tracking ? withTracking(rendered, options.tracking) : rendered;
      language = {
        subject: compile(sources.subject),
        html: tagSlots(compile(sources.html)),
        text: compile(sources.text),
      };
      languages.set(locale, language);
    }
    return language;
  };
  const localeFor = (stored: string | undefined): Locale =>
    isLocale(stored) && mail.languages[stored] ? stored : mail.defaultLocale;

  return {
    localeFor,
    subjectOf: (locale, values) =>
      fill(compiled(locale).subject, (slot) => slotValue(slot, { ...values, ...NO_LINKS })),
    render(locale, values, links, tracking) {
      const slots: SlotValues = { ...values, ...links, ...(tracking ? { tracking } : {}) };
      const language = compiled(locale);
      return {
        subject: fill(language.subject, (slot) => slotValue(slot, slots)),
        text: fill(language.text, (slot) => slotValue(slot, slots)),
        html: fill(language.html, (tag) => escapeHtml(slotValue(tag, slots))),
      };
    },
    frameOf(locale) {
      const language = compiled(locale);
      return { text: language.text, html: language.html };
    },
  };
}

/** `{{senderName}}`: the display name of the sender's address, else the address. */
export function senderNameOf(mailFrom: string): string {
  const match = /^\s*"?([^"<]*?)"?\s*<([^>]+)>\s*$/.exec(mailFrom);
  if (!match) return mailFrom.trim();
  return (match[1] ?? '').trim() || (match[2] ?? '').trim();
}
