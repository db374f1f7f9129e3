import { directionOf, type Locale } from '@agency/contracts';
import { escapeHtml } from './escape-html';

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

/**
 * The HTML frame of the mails visitors receive: the language and direction
 * are set on the document, so Arabic mail reads right to left in every client.
 * `bodyHtml` is markup the template built from escaped values.
 */
export function htmlDocument({
  locale,
  title,
  bodyHtml,
}: {
  locale: Locale;
  title: string;
  bodyHtml: string;
}): string {
  const dir = directionOf(locale);
  return [
    '<!doctype html>',
    `<html lang="${locale}" dir="${dir}">`,
    '<head><meta charset="utf-8">',
    `<title>${escapeHtml(title)}</title></head>`,
    `<body dir="${dir}" style="font-family:Arial,Helvetica,sans-serif;line-height:1.5;color:#1f2937">`,
    bodyHtml,
    '</body>',
    '</html>',
  ].join('\n');
}

export function paragraph(text: string): string {
  return `<p>${escapeHtml(text)}</p>`;
}

export function link(href: string, label: string): string {
  return `<a href="${escapeHtml(href)}">${escapeHtml(label)}</a>`;
}
