import { Parser } from 'htmlparser2';
import type { Locale } from '../locales';
import type { ValidationMessageKey } from '../validation/messages';
import { PLACEHOLDER_PATTERN } from './layout-placeholders';

/**
 * What a recipient placeholder says when the recipient has no value for it:
 * `{{firstName|there}}` reads "there" for a subscriber without a first name.
 * The same parser serves the editor's checks, the preview and the worker's
 * rendering, so what the editor accepts is exactly what a mail says.
 */

/** A fallback is a word or two of text: longer ones are a sign of a mistake. */
export const PLACEHOLDER_FALLBACK_MAX = 40;

/** The placeholders that may carry a fallback: those whose value is the recipient's. */
export const FALLBACK_VARIABLES = ['firstName', 'lastName', 'email'] as const;
export type FallbackVariable = (typeof FALLBACK_VARIABLES)[number];

export const isFallbackVariable = (name: string): name is FallbackVariable =>
  (FALLBACK_VARIABLES as readonly string[]).includes(name);

/**
 * The campaign's default fallback per language, when it sets none: what a
 * placeholder without its own fallback says rather than leave a hole
 * ("Dear there,", "Bonjour à vous,", "مرحبًا صديقنا،").
 */
export const DEFAULT_PLACEHOLDER_FALLBACKS: Readonly<Record<Locale, string>> = {
  en: 'there',
  fr: 'à vous',
  ar: 'صديقنا',
};

/** A campaign's default fallback in each language. */
export type PlaceholderFallbacks = Record<Locale, string>;

/** The defaults a campaign stored before it had its own, or with some languages unset. */
export function fallbacksOf(stored: Partial<Record<Locale, string>> | null | undefined) {
  const fallbacks: PlaceholderFallbacks = { ...DEFAULT_PLACEHOLDER_FALLBACKS };
  for (const locale of Object.keys(fallbacks) as Locale[]) {
    const own = stored?.[locale]?.trim();
    if (own) fallbacks[locale] = own;
  }
  return fallbacks;
}

/** One `{{…}}` as written: its name, and its fallback when it has a `|`. */
export interface ParsedPlaceholder {
  name: string;
  /** Trimmed text after the `|`, as written (HTML still encoded in HTML); undefined without one. */
  fallback: string | undefined;
  start: number;
  end: number;
}

/** Every placeholder written in `source`, in order. */
export function parsePlaceholders(source: string): ParsedPlaceholder[] {
  return [...source.matchAll(PLACEHOLDER_PATTERN)].map((match) => ({
    name: match[1] ?? '',
    fallback: match[2] === undefined ? undefined : match[2].trim(),
    start: match.index,
    end: match.index + match[0].length,
  }));
}

/** The text an HTML fragment without tags stands for (`Tom &amp; Jerry` → `Tom & Jerry`). */
export function decodeHtmlText(html: string): string {
  let text = '';
  const parser = new Parser(
    {
      ontext(part) {
        text += part;
      },
    },
    { decodeEntities: true },
  );
  parser.end(html);
  return text;
}

/** Braces, a second `|` or anything of markup: a fallback is plain text. */
const NOT_PLAIN_TEXT = /[{}<>|]/;

/**
 * Why a fallback as written (in HTML when `html`) may not stand, or null.
 * The raw text is checked before decoding, so `&lt;b&gt;` cannot pass for text.
 */
export function fallbackProblem(written: string, html: boolean): ValidationMessageKey | null {
  const text = html ? decodeHtmlText(written) : written;
  if (text.trim() === '') return 'fallbackEmpty';
  if (NOT_PLAIN_TEXT.test(written) || NOT_PLAIN_TEXT.test(text)) return 'fallbackMarkup';
  if ([...text].length > PLACEHOLDER_FALLBACK_MAX) return 'fallbackTooLong';
  return null;
}

/**
 * A `{{` that opens no placeholder: one not closed, or whose fallback holds a
 * brace (`{{firstName|the{re}}`). It would reach the mail as written.
 */
export function strayPlaceholderBraces(source: string): boolean {
  return source.replace(PLACEHOLDER_PATTERN, '').includes('{{');
}
