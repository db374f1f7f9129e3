import { decodeHtmlText, parsePlaceholders } from '@agency/contracts';
import { escapeHtml } from '../../mail/escape-html';

/**
 * The neutral value of a placeholder on the public archive, where nobody is
 * the recipient: a first name says its own fallback or the campaign's word
 * for the language ("there"); a last name and the sender say their own
 * fallback or nothing; an address and the unsubscribe link say nothing.
 */
function neutralValue(name: string, ownFallback: string | undefined, fallback: string): string {
  if (name === 'firstName') return ownFallback ?? fallback;
  if (name === 'lastName' || name === 'senderName') return ownFallback ?? '';
  return '';
}

/** `source` (HTML when `html`) with every placeholder replaced by its neutral value. */
export function withNeutralPlaceholders(source: string, html: boolean, fallback: string): string {
  let written = '';
  let from = 0;
  for (const { name, fallback: own, start, end } of parsePlaceholders(source)) {
    const ownFallback = own === undefined ? undefined : html ? decodeHtmlText(own) : own;
    const value = neutralValue(name, ownFallback, fallback);
    written += source.slice(from, start) + (html ? escapeHtml(value) : value);
    from = end;
  }
  return written + source.slice(from);
}

const SUMMARY_LENGTH = 200;
const BLOCK_END = /<\/(?:p|div|h[1-6]|li|td|th|blockquote)>|<br\s*\/?>|<hr\s*\/?>/gi;

/** The first words of an HTML fragment as plain text, for an index entry and a meta description. */
export function summaryOf(html: string): string {
  // A block's end is a word break; an inline tag's is not ("our <a>packs</a>.").
  const text = decodeHtmlText(html.replace(BLOCK_END, ' ')).replace(/\s+/g, ' ').trim();
  if (text.length <= SUMMARY_LENGTH) return text;
  const cut = text.slice(0, SUMMARY_LENGTH);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(' '), SUMMARY_LENGTH / 2))}…`;
}
