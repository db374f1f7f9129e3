import type { Locale } from '../locales';

/** The longest campaign name the editor accepts. */
export const CAMPAIGN_NAME_MAX = 200;

/** What a copy's name starts with, in each language the dashboard speaks. */
const COPY_PREFIXES: Record<Locale, string> = {
  en: 'Copy of ',
  fr: 'Copie de ',
  ar: 'نسخة من ',
};

/** A copy after the first is numbered: "Copy of Spring sale (2)". */
const COPY_NUMBER = / \((\d+)\)$/;

/**
 * The name of the campaign a copy was made from: copying a copy numbers
 * another copy of the original rather than stacking "Copy of Copy of …",
 * whichever language the first copy was named in.
 */
export function originalNameOfCopy(name: string): string {
  const prefix = Object.values(COPY_PREFIXES).find(
    (candidate) => name.startsWith(candidate) && name.length > candidate.length,
  );
  if (!prefix) return name;
  return name.slice(prefix.length).replace(COPY_NUMBER, '');
}

/**
 * The names a copy of `sourceName` may take, in order of preference: the
 * first `count` of "Copy of X", "Copy of X (2)", "Copy of X (3)"… Each fits
 * the editor's limit, the original's name being cut rather than the number.
 */
export function campaignCopyNames(
  sourceName: string,
  locale: Locale,
  count: number,
  first = 1,
): string[] {
  const prefix = COPY_PREFIXES[locale];
  const original = originalNameOfCopy(sourceName);
  return Array.from({ length: count }, (_, index) => {
    const number = first + index;
    const suffix = number === 1 ? '' : ` (${number})`;
    const room = CAMPAIGN_NAME_MAX - prefix.length - suffix.length;
    return `${prefix}${original.slice(0, room).trimEnd()}${suffix}`;
  });
}
