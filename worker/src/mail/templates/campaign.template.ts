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

const asIs = (value: string) => value;

export function localeOf(value: string): Locale {
  return (LOCALES as readonly string[]).includes(value) ? (value as Locale) : DEFAULT_LOCALE;
}

export interface CompiledCampaignMail {
  render(locale: Locale, values: Personalisation, unsubscribeUrl: string): RenderedMail;
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
  return {
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
}
