import { Parser } from 'htmlparser2';
import { DEFAULT_LOCALE, LOCALES } from '@agency/contracts';
import { escapeHtml } from '../../mail/escape-html';

/**
 * A campaign's link table and the rewriting of its links into tracking links.
 *
 * The send builds the table once from every language's HTML and text
 * (`buildCampaignLinkTable`) and stores it with the campaign; the compile
 * step (`compileCampaignMail`) then rewrites each language's HTML and text
 * once (`rewriteTrackedLinks`, `rewriteTrackedTextLinks`) so that each link
 * becomes a slot such as `{{trackedLink:3}}`, and every recipient's mail
 * stays string joins. The redirect endpoint reads the target from the
 * stored table by the index the signed token names, never from the token,
 * so a tracking link cannot be turned into an open redirect. The report's
 * per-link table and click map name links by the same index.
 */

/** A campaign tracks at most this many distinct links; the rest stay as written, untracked. */
export const TRACKED_LINKS_MAX = 1_000;

/**
 * A longer URL stays as written, untracked: 2,048 characters is what every
 * browser and server takes, and the table is stored with the campaign.
 */
export const TRACKED_URL_MAX_LENGTH = 2_048;

/**
 * The site's own pages that manage a subscription (`/newsletter/confirm`,
 * `/newsletter/unsubscribe`, `/newsletter/preferences`, and the same below
 * `/fr/` and `/ar/`, where the manage link opens them) and the API behind
 * them: links there are never tracked. A URL, rather than an attribute, marks
 * them because the text part has no attributes, and the sanitiser drops
 * attributes it does not know. Compared in lower case: the site's router is.
 */
export const UNTRACKED_SITE_PATHS: readonly string[] = [
  '/newsletter/',
  '/api/newsletter/',
  ...LOCALES.filter((locale) => locale !== DEFAULT_LOCALE).map(
    (locale) => `/${locale}/newsletter/`,
  ),
];

/**
 * The distinct targets of a campaign's links, in the order first met. A
 * link's index is its position: the tracking token names it, the redirect
 * reads the target here, the report groups clicks by it.
 */
export interface CampaignLinkTable {
  readonly links: readonly string[];
  /** Distinct trackable targets beyond `TRACKED_LINKS_MAX`, left untracked. */
  readonly untrackedOverLimit: number;
}

/** One language of a campaign's mail as the compile step builds it. */
export interface LinkSource {
  html: string;
  text: string;
}

export interface LinkTableOptions {
  /** The public site's address (`SITE_URL`): its subscription pages are never tracked. Empty: any host's. */
  siteUrl: string;
}

/** What a slot stands for in a URL: a per-recipient value, which one stored target cannot be. */
const SLOT_BRACES = /\{\{|\}\}/;
const WEB_SCHEME = /^\s*https?:\/\//i;

/**
 * The URL a browser opens for a link's address, if the link is one we may
 * track: an absolute web address with no placeholder, not too long. The key
 * is the WHATWG URL serialisation, which is what the browser navigates to:
 * two spellings merge only when every browser opens the same address
 * (`HTTPS://Example.com` and `https://example.com/`), while paths, queries
 * and their order, which servers may read differently, stay distinct.
 */
export function trackableTarget(address: string): string | undefined {
  if (!WEB_SCHEME.test(address) || SLOT_BRACES.test(address)) return undefined;
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    return undefined;
  }
  return url.href.length > TRACKED_URL_MAX_LENGTH ? undefined : url.href;
}

/** Whether a target is one of the site's subscription pages, which stay untracked. */
function isSubscriptionPage(target: string, siteOrigin: string | undefined): boolean {
  const url = new URL(target);
  // Without a site address (SITE_URL unset or not a URL), such a path on any host is taken for ours.
  if (siteOrigin !== undefined && url.origin !== siteOrigin) return false;
  const path = url.pathname.toLowerCase();
  return UNTRACKED_SITE_PATHS.some((prefix) => path.startsWith(prefix));
}

function originOf(siteUrl: string): string | undefined {
  try {
    return new URL(siteUrl).origin;
  } catch {
    return undefined;
  }
}

/** A link's address as the HTML writes it: where its value's bytes stand, and the value decoded. */
interface HrefSite {
  /** The value's first byte (its opening quote when quoted). */
  start: number;
  /** Just past the value's last byte (its closing quote when quoted). */
  end: number;
  /** The value as a browser reads it: entities decoded. */
  value: string;
}

/** Elements whose `href` a reader follows. */
const LINK_ELEMENTS = new Set(['a', 'area']);

/**
 * Each link's `href` in the HTML, in document order, located by
 * htmlparser2's offsets (the parser sanitize-html read the mail with), so
 * rewriting touches those bytes alone. Only an element's first `href`
 * counts: it is the one browsers follow.
 */
function hrefSites(html: string): HrefSite[] {
  const sites: HrefSite[] = [];
  let tagName = '';
  let seenHref = false;
  const parser: Parser = new Parser(
    {
      onopentagname(name) {
        tagName = name;
        seenHref = false;
      },
      onattribute(name, value) {
        if (name !== 'href' || !LINK_ELEMENTS.has(tagName) || seenHref) return;
        seenHref = true;
        // A bare `href` has no `=`, and no value to replace.
        const start = valueStart(html, parser.startIndex + name.length);
        if (start !== undefined) sites.push({ start, end: parser.endIndex, value });
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.end(html);
  return sites;
}

/** Where an attribute's value starts: past the spaces and `=` that follow its name. */
function valueStart(html: string, afterName: number): number | undefined {
  const match = /^\s*=\s*/.exec(html.slice(afterName, afterName + 64));
  return match ? afterName + match[0].length : undefined;
}

/**
 * Web addresses in plain text as html-to-text writes links (`text [https://…]`)
 * and as an author types them: from the scheme to the next space, or to a
 * character no URL holds unescaped (`<`, `>`, `"`).
 */
const TEXT_URL = /https?:\/\/[^\s<>"]+/gi;
/** Punctuation that ends a sentence rather than a URL, as mail clients' autolinkers read it. */
const TRAILING_PUNCTUATION = /[.,;:!?'*]+$/;

/** Drops what closes the sentence around a URL: trailing punctuation and unmatched closers. */
function trimTextUrl(candidate: string): string {
  let url = candidate;
  for (;;) {
    const trimmed = url.replace(TRAILING_PUNCTUATION, '');
    const last = trimmed.at(-1);
    const opener = last === ')' ? '(' : last === ']' ? '[' : undefined;
    const unmatched = opener !== undefined && count(trimmed, last ?? '') > count(trimmed, opener);
    const next = unmatched ? trimmed.slice(0, -1) : trimmed;
    if (next === url) return url;
    url = next;
  }
}

function count(text: string, character: string): number {
  return text.split(character).length - 1;
}

/** A URL in plain text: where it stands and the address as written. */
interface TextUrlSite {
  start: number;
  end: number;
  value: string;
}

/**
 * Each web address in the text, in order. One that runs into a placeholder
 * (`https://x.test/?e={{email}}`, `{{ email }}`) holds its braces, so it
 * reads as a per-recipient address and stays untracked whole.
 */
function textUrlSites(text: string): TextUrlSite[] {
  return [...text.matchAll(TEXT_URL)].map((match) => {
    const value = trimTextUrl(match[0]);
    return { start: match.index, end: match.index + value.length, value };
  });
}

/**
 * The link table of a campaign: every distinct trackable target of its
 * languages' HTML links and text URLs, in the order first met (languages
 * in the order given, which must be fixed, e.g. the locales' order; each
 * language's HTML, then its text). Not tracked: `mailto:`, `tel:`,
 * `#anchors`, relative and `javascript:` addresses, any address holding a
 * placeholder (`{{unsubscribeUrl}}`, `?e={{email}}`: it differs per
 * recipient), the site's subscription pages, URLs over
 * `TRACKED_URL_MAX_LENGTH`, and distinct targets past `TRACKED_LINKS_MAX`.
 */
export function buildCampaignLinkTable(
  sources: readonly LinkSource[],
  options: LinkTableOptions,
): CampaignLinkTable {
  const siteOrigin = originOf(options.siteUrl);
  const links = new Set<string>();
  const overLimit = new Set<string>();
  const take = (address: string) => {
    const target = trackableTarget(address);
    if (target === undefined || links.has(target)) return;
    if (isSubscriptionPage(target, siteOrigin)) return;
    if (links.size < TRACKED_LINKS_MAX) links.add(target);
    else overLimit.add(target);
  };
  for (const source of sources) {
    for (const site of hrefSites(source.html)) take(site.value);
    for (const site of textUrlSites(source.text)) take(site.value);
  }
  return { links: [...links], untrackedOverLimit: overLimit.size };
}

/** What a tracked link's address becomes, by its index in the table (e.g. `{{trackedLink:3}}`). */
export type TrackedHref = (index: number) => string;

function indexesOf(table: CampaignLinkTable): Map<string, number> {
  return new Map(table.links.map((target, index) => [target, index]));
}

/** The source with each site whose target is in the table replaced, every other byte kept. */
function replaceSites(
  source: string,
  sites: readonly { start: number; end: number; value: string }[],
  table: CampaignLinkTable,
  write: (index: number) => string,
): string {
  const indexes = indexesOf(table);
  let rewritten = '';
  let from = 0;
  for (const site of sites) {
    const target = trackableTarget(site.value);
    const index = target === undefined ? undefined : indexes.get(target);
    if (index === undefined) continue;
    rewritten += source.slice(from, site.start) + write(index);
    from = site.end;
  }
  return rewritten + source.slice(from);
}

/**
 * The HTML with each link whose target is in the table pointing at
 * `hrefFor(index)` instead, written as a double-quoted, escaped attribute
 * value, so no address can close the quote or the tag. Every other byte
 * (other attributes, untracked links, text) comes out as it went in.
 */
export function rewriteTrackedLinks(
  html: string,
  table: CampaignLinkTable,
  hrefFor: TrackedHref,
): string {
  return replaceSites(html, hrefSites(html), table, (index) => `"${escapeHtml(hrefFor(index))}"`);
}

/** The text part with each URL whose target is in the table replaced by `hrefFor(index)`. */
export function rewriteTrackedTextLinks(
  text: string,
  table: CampaignLinkTable,
  hrefFor: TrackedHref,
): string {
  return replaceSites(text, textUrlSites(text), table, hrefFor);
}
