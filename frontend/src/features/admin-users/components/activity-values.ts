import type { ActivityValue } from '@agency/contracts';

/** As much of a value as a line of the log shows; the rest is cut with "…". */
export const SHOWN_VALUE_MAX = 80;

/** A campaign's content or a layout is HTML: the log shows its words, not its tags. */
function textOfMarkup(value: string): string {
  if (!/<[a-z!/][^>]*>/i.test(value)) return value;
  const parsed = new DOMParser().parseFromString(value, 'text/html');
  return parsed.body.textContent ?? '';
}

/** A setting kept as JSON (a sending window, translations): its values, without braces or quotes. */
function textOfJson(value: string): string {
  if (!/^\s*[[{]/.test(value)) return value;
  try {
    return flatten(JSON.parse(value) as unknown);
  } catch {
    // Cut at the log's length limit, it is no longer JSON: shown as text.
    return value.replace(/["{}[\]]/g, ' ');
  }
}

function flatten(value: unknown): string {
  if (Array.isArray(value)) return value.map(flatten).join(', ');
  if (value !== null && typeof value === 'object') {
    return Object.values(value as Record<string, unknown>)
      .map(flatten)
      .filter(Boolean)
      .join(', ');
  }
  return value === null || value === undefined ? '' : String(value);
}

function shortened(text: string): string {
  const plain = text.replace(/\s+/g, ' ').trim();
  return plain.length > SHOWN_VALUE_MAX
    ? `${plain.slice(0, SHOWN_VALUE_MAX - 1).trimEnd()}…`
    : plain;
}

export interface ValueWords {
  yes: string;
  no: string;
  empty: string;
  /** A number in the reader's numbering. */
  number: (value: number) => string;
}

/**
 * A logged value as a person reads it: markup and JSON reduced to their
 * words, whitespace folded, cut to one line; yes/no and "(empty)" in the
 * reader's language.
 */
export function readableValue(value: ActivityValue | undefined, words: ValueWords): string {
  if (value === undefined || value === null || value === '') return words.empty;
  if (typeof value === 'boolean') return value ? words.yes : words.no;
  if (typeof value === 'number') return words.number(value);
  const text = Array.isArray(value) ? value.join(', ') : textOfJson(textOfMarkup(value));
  return shortened(text) || words.empty;
}

/** `estimatedValue` → "Estimated value": a field the translations do not name yet still reads. */
export function fieldWords(field: string): string {
  const words = field.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
