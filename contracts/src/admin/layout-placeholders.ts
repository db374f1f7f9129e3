import { Parser } from 'htmlparser2';

/**
 * `{{ name }}` or `{{ name | fallback }}` as the mail's placeholders are
 * written: the name is captured first, the fallback as written (untrimmed,
 * maybe empty) second. The fallback stops at a brace: one holding a brace is
 * no placeholder, which `strayPlaceholderBraces` catches.
 */
export const PLACEHOLDER_PATTERN = /\{\{\s*([^{}|]*?)\s*(?:\|([^{}]*?))?\s*\}\}/g;

/**
 * Where in a layout's HTML a placeholder stands. Only `text` (between tags)
 * is a place where HTML can be put without changing what the markup around
 * it means; anywhere else a value could close a quote or a tag.
 */
export type PlaceholderPlace =
  | { kind: 'text' }
  | { kind: 'attribute'; tag: string; attribute: string; value: string }
  | { kind: 'tag'; tag: string }
  | { kind: 'element'; tag: string }
  | { kind: 'markup' };

/** One `{{name}}` as written in the HTML: its name, where it is, and its place. */
export interface PlaceholderSite {
  name: string;
  start: number;
  end: number;
  place: PlaceholderPlace;
}

/**
 * Elements whose content is code, raw text or foreign markup rather than
 * text of the mail: a value there would run, or be read by other rules.
 */
const NOT_TEXT_ELEMENTS = new Set([
  'script',
  'style',
  'textarea',
  'title',
  'xmp',
  'iframe',
  'noembed',
  'noframes',
  'noscript',
  'plaintext',
  'template',
  'svg',
  'math',
  'object',
  'select',
  'option',
]);

const MARKUP: PlaceholderPlace = { kind: 'markup' };
const TEXT: PlaceholderPlace = { kind: 'text' };

interface ParsedLayout {
  /** The place of each character of the HTML (comments, declarations and the unparsed: `markup`). */
  placeAt: PlaceholderPlace[];
  /** Every attribute, its value decoded as a mail client reads it. */
  attributes: Extract<PlaceholderPlace, { kind: 'attribute' }>[];
}

/** Tokenises the HTML as a mail client would (htmlparser2) and notes each character's place. */
function parseLayout(html: string): ParsedLayout {
  const placeAt: PlaceholderPlace[] = new Array<PlaceholderPlace>(html.length).fill(MARKUP);
  const attributes: ParsedLayout['attributes'] = [];
  const open: string[] = [];
  let tagName = '';
  const mark = (from: number, to: number, place: PlaceholderPlace, onlyUnmarked = false) => {
    for (let at = Math.max(0, from); at <= to && at < html.length; at++) {
      if (!onlyUnmarked || placeAt[at] === MARKUP) placeAt[at] = place;
    }
  };
  const parser: Parser = new Parser(
    {
      onopentagname(name) {
        tagName = name;
      },
      onattribute(name, value) {
        const place = { kind: 'attribute', tag: tagName, attribute: name, value } as const;
        attributes.push(place);
        mark(parser.startIndex, parser.endIndex, place);
      },
      onopentag(name) {
        // The tag's own characters that no attribute claimed: its name, spaces, `/`, `>`.
        mark(parser.startIndex, parser.endIndex, { kind: 'tag', tag: name }, true);
        open.push(name);
      },
      onclosetag(name) {
        mark(parser.startIndex, parser.endIndex, { kind: 'tag', tag: name }, true);
        const at = open.lastIndexOf(name);
        if (at >= 0) open.length = at;
      },
      ontext() {
        const inside = open.find((element) => NOT_TEXT_ELEMENTS.has(element));
        mark(parser.startIndex, parser.endIndex, inside ? { kind: 'element', tag: inside } : TEXT);
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.end(html);
  return { placeAt, attributes };
}

/** The least safe place among a placeholder's characters: it is text only if all of it is. */
function placeOf(placeAt: readonly PlaceholderPlace[], start: number, end: number) {
  let place: PlaceholderPlace = TEXT;
  for (let at = start; at < end; at++) {
    const here = placeAt[at] ?? MARKUP;
    if (here.kind !== 'text') return here;
    place = here;
  }
  return place;
}

/** Every `{{name}}` written in the HTML, in order, with its place. */
export function placeholderSites(html: string): PlaceholderSite[] {
  const { placeAt } = parseLayout(html);
  return [...html.matchAll(PLACEHOLDER_PATTERN)].map((match) => {
    const start = match.index;
    const end = start + match[0].length;
    return { name: match[1] ?? '', start, end, place: placeOf(placeAt, start, end) };
  });
}

/** A template's colour slots: the schema lets them hold only `#rrggbb`. */
const COLOUR_SLOTS: readonly string[] = ['brandColor', 'backgroundColor', 'textColor'];
const COLOUR_ATTRIBUTES: readonly string[] = ['style', 'bgcolor', 'color'];

/**
 * Whether a placeholder may stand where it is. Text takes any. Outside text
 * only two kinds hold values that cannot break out: a colour slot (a checked
 * `#rrggbb`) in a colour or style attribute, and `{{unsubscribeUrl}}` as the
 * whole address of a link (always a URL we made, escaped as an attribute
 * value and kept only as a web address by the renderer).
 */
export function placeholderFits(name: string, place: PlaceholderPlace): boolean {
  if (place.kind === 'text') return true;
  if (place.kind !== 'attribute') return false;
  if (COLOUR_SLOTS.includes(name)) return COLOUR_ATTRIBUTES.includes(place.attribute);
  return (
    name === 'unsubscribeUrl' &&
    place.tag === 'a' &&
    place.attribute === 'href' &&
    /^\{\{\s*unsubscribeUrl\s*\}\}$/.test(place.value.trim())
  );
}

/** A placeholder a layout puts where it may not stand. */
export interface MisplacedPlaceholder {
  name: string;
  place: Exclude<PlaceholderPlace, { kind: 'text' }>;
}

/**
 * The first placeholder of a layout that stands outside text, if any. An
 * attribute is judged by its decoded value too, so `&#123;&#123;content}}`
 * cannot pass for text and come back as `{{content}}` once re-serialised.
 */
export function misplacedPlaceholder(html: string): MisplacedPlaceholder | undefined {
  const { placeAt, attributes } = parseLayout(html);
  for (const match of html.matchAll(PLACEHOLDER_PATTERN)) {
    const name = match[1] ?? '';
    const place = placeOf(placeAt, match.index, match.index + match[0].length);
    if (place.kind !== 'text' && !placeholderFits(name, place)) return { name, place };
  }
  for (const place of attributes) {
    for (const [, name = ''] of place.value.matchAll(PLACEHOLDER_PATTERN)) {
      if (!placeholderFits(name, place)) return { name, place };
    }
  }
  return undefined;
}
