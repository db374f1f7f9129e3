import type { Locale } from './locales';

/**
 * The Intl tag a language's numbers and dates are written with. Arabic keeps
 * Western digits everywhere (the public site's figures, the admin's counts,
 * the mails' times): one numbering per language, whatever Intl's default for
 * a region would be.
 */
const FORMAT_TAGS: Readonly<Record<Locale, string>> = {
  en: 'en',
  fr: 'fr',
  ar: 'ar-TN-u-nu-latn',
};

export function formatTagOf(locale: Locale): string {
  return FORMAT_TAGS[locale];
}

const instantFormats = new Map<string, Intl.DateTimeFormat>();

function instantFormatOf(locale: Locale, timeZone: string | undefined): Intl.DateTimeFormat {
  const key = `${locale} ${timeZone ?? ''}`;
  let format = instantFormats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(formatTagOf(locale), {
      year: 'numeric',
      month: 'short',
      day: 'numeric',
      hour: 'numeric',
      minute: '2-digit',
      // The zone's short name as Intl gives it in the language ("GMT+1",
      // "UTC+1", "غرينتش+1"): a time is never read on a clock it does not name.
      timeZoneName: 'short',
      ...(timeZone ? { timeZone } : {}),
    });
    instantFormats.set(key, format);
  }
  return format;
}

/**
 * An instant as the agency reads it: date and time on the agency's clock,
 * with the zone named, in `locale`. Without a zone (not known yet) it is the
 * reader's own clock, still named.
 */
export function formatInstant(
  instant: Date | string | number,
  locale: Locale,
  timeZone?: string,
): string {
  return instantFormatOf(locale, timeZone).format(new Date(instant));
}
