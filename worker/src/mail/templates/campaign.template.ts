import { randomBytes } from 'node:crypto';
import { convert } from 'html-to-text';
import { DEFAULT_LOCALE, LOCALES, type Locale } from '@agency/contracts';
import { escapeHtml } from './escape-html';
import { htmlDocument, type RenderedMail } from './rendered-mail';
import { renderUnsubscribeFooter } from './unsubscribe-footer.template';

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

function fill(template: Template, values: Personalisation, escape: (value: string) => string) {
  let out = '';
  for (let index = 0; index < template.length; index++) {
    const part = template[index] ?? '';
    out += index % 2 === 0 ? part : escape(values[part as keyof Personalisation]);
  }
  return out;
}

/** A slot filled as it is: the subject and the text body take values unescaped. */
export const asIs = (value: string) => value;

export function localeOf(value: string): Locale {
  return (LOCALES as readonly string[]).includes(value) ? (value as Locale) : DEFAULT_LOCALE;
}

/** What differs from one recipient's mail to the next inside its bodies. */
export type Slot = keyof Personalisation | 'unsubscribeUrl';
export type SlotValues = Record<Slot, string>;

/** A rendered body with its recipient's parts left open: literal text at even indexes, slots at odd ones. */
export type Segments = readonly string[];

/**
 * A campaign's bodies in one language, rendered once. Filling a slot of the
 * HTML takes the value HTML-escaped, of the text as it is: then the mail is
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
 * Renders the mail once with a marker in each slot, then cuts the bodies at
 * the markers. The markers are private-use characters around a random nonce,
 * which HTML escaping leaves alone and no campaign can contain by chance.
 */
function frameOf(render: CompiledCampaignMail['render'], locale: Locale): CampaignFrame {
  const nonce = randomBytes(8).toString('hex');
  const marker = (slot: Slot) => `\uE000${nonce}${slot}\uE001`;
  const rendered = render(
    locale,
    { firstName: marker('firstName'), email: marker('email') },
    marker('unsubscribeUrl'),
  );
  const markers = new RegExp(`\uE000${nonce}(firstName|email|unsubscribeUrl)\uE001`);
  return { text: rendered.text.split(markers), html: rendered.html.split(markers) };
}

/**
 * Parses a campaign once (its placeholders, its text version) so each of its
 * thousands of mails is only string joins. Values go into the HTML escaped:
 * a contact named `<script>` stays text.
 */
export function compileCampaignMail(campaign: {
  subject: string;
  content: string;
}): CompiledCampaignMail {
  const subject = compile(campaign.subject);
  const html = compile(campaign.content);
  const text = compile(convert(campaign.content, { wordwrap: 78 }));
  const compiled: CompiledCampaignMail = {
    subjectOf: (values) => fill(subject, values, asIs),
    frameOf: (locale) => frameOf(compiled.render, locale),
    render(locale, values, unsubscribeUrl) {
      const footer = renderUnsubscribeFooter(locale, unsubscribeUrl);
      const renderedSubject = fill(subject, values, asIs);
      return {
        subject: renderedSubject,
        text: `${fill(text, values, asIs)}\n\n${footer.text}`,
        html: htmlDocument({
          locale,
          title: renderedSubject,
          bodyHtml: `${fill(html, values, escapeHtml)}\n${footer.html}`,
        }),
      };
    },
  };
  return compiled;
}
