import { createHmac, timingSafeEqual } from 'node:crypto';
import { derivedKeyBytes } from '../../derived-key';
import { hmacSha256Of, type HmacSha256 } from '../../hmac-sha256';
import { base64urlLength, bytesOfBase64url } from './base64url-bytes';
import { RECIPIENT_KEY_BYTES, recipientKeyBytes } from './recipient-key';
import { TRACKED_LINKS_MAX } from './link-table';
import { CAMPAIGN_SOURCES_MAX, LOCALES, type Locale } from '@agency/contracts';

/**
 * The signed tokens in a campaign's tracking links and open pixel: which
 * campaign, which link (clicks only), which recipient key (never the
 * address, see recipient-key.ts), when the mail was sent and in which
 * language (what the machine rules and the per-language report need, so the
 * endpoints read no ledger). The public redirect and pixel endpoints will
 * verify them from the token alone, with no store or Redis call, and take the
 * link's target from the campaign's stored link table, never from the token,
 * so a token can name a link of ours and nothing else. The mail rendering will
 * sign one per tracked link and one per pixel of every mail.
 *
 * Layout (bytes, then unpadded base64url), version 2:
 *
 *   version(1) kind(1) campaign id(12) recipient key(16) sent at(4) language(1)
 *   source(1) [link index(2)] MAC(12)
 *
 * an open token is 48 bytes (64 characters), a click token 50 (67). The
 * sending time is in whole seconds since 1970 (unsigned, good until 2106);
 * the language is its index in LOCALES; the source is the recipient's place
 * in the campaign's sources (`CampaignRecipient.source`, for the report per
 * list), 255 when the roster did not keep it. Version 1, in the mails sent
 * before sources were kept, has no source byte (47 and 49 bytes: 63 and 66
 * characters); it still verifies, with a null source. Binary, not JSON,
 * because the token is repeated for every link of every mail.
 */
export interface TrackingTokenKey {
  readonly macKey: Buffer;
  /** The MAC signing uses, padded once for the key: a mail signs one per tracked link and pixel. */
  readonly sign: HmacSha256;
}

/**
 * HKDF gives the tokens a key of their own: MAIL_LINK_SECRET also signs the
 * newsletter's links and keys the mail identities, and a token MAC reveals
 * nothing of it nor can stand for one of theirs.
 */
const HKDF_SALT = 'agency campaign tracking tokens';
const HKDF_INFO = 'open pixel and click link token mac, version 1';

export function trackingTokenKey(mailLinkSecret: string): TrackingTokenKey {
  const macKey = derivedKeyBytes(mailLinkSecret, HKDF_SALT, HKDF_INFO);
  return { macKey, sign: hmacSha256Of(macKey) };
}

// The link index is two bytes, but a campaign's link table holds at most
// TRACKED_LINKS_MAX links, and the index just past a table's last link is the
// mail's hidden trap link: a token naming a later index is refused even if signed.

export interface OpenTokenPayload {
  kind: 'open';
  /** 24 lower-case hex digits, as `ObjectId#toHexString` writes them. */
  campaignId: string;
  recipientKey: string;
  /** When the mail was sent, to the second. */
  sentAt: Date;
  /** The language the mail was written in. */
  locale: Locale;
  /** The recipient's source in the campaign; null when unknown (a version 1 token, an older roster). */
  source: number | null;
}

export interface ClickTokenPayload {
  kind: 'click';
  campaignId: string;
  /** The link's place in the campaign's link table, from 0; the table's length is the trap link. */
  linkIndex: number;
  recipientKey: string;
  sentAt: Date;
  locale: Locale;
  source: number | null;
}

export type TrackingTokenPayload = OpenTokenPayload | ClickTokenPayload;

/** A new layout takes a new version byte; tokens already mailed keep theirs. */
const VERSION = 2;
/** The layout before the source byte: still verified, never signed. */
const VERSION_WITHOUT_SOURCE = 1;
const KIND_BYTES = { open: 0x6f, click: 0x63 } as const;
const CAMPAIGN_ID_BYTES = 12;
const SENT_AT_BYTES = 4;
const LINK_INDEX_BYTES = 2;
/** The source byte of a recipient whose source is not known. */
const UNKNOWN_SOURCE = CAMPAIGN_SOURCES_MAX;
/**
 * 96 bits of HMAC-SHA-256. A MAC is only checked by our endpoints, one request
 * at a time, so forging a token takes about 2^95 requests, and would win a
 * false count at most (the target comes from the link table). That is above
 * the 80 bits RFC 2104 asks of a truncated MAC and NIST SP 800-107's 64; 128
 * bits would add five characters to every link of every mail and stop nothing more.
 */
const MAC_BYTES = 12;

const CAMPAIGN_AT = 2;
const RECIPIENT_AT = CAMPAIGN_AT + CAMPAIGN_ID_BYTES;
const SENT_AT_AT = RECIPIENT_AT + RECIPIENT_KEY_BYTES;
const LOCALE_AT = SENT_AT_AT + SENT_AT_BYTES;

/** Where a layout keeps its fields after the language, and how long its tokens are. */
interface Layout {
  version: number;
  /** Where the source byte is; null in version 1. */
  sourceAt: number | null;
  linkIndexAt: number;
  bytes: { open: number; click: number };
}

function layoutOf(version: number, sourceBytes: number): Layout {
  const linkIndexAt = LOCALE_AT + 1 + sourceBytes;
  return {
    version,
    sourceAt: sourceBytes === 0 ? null : LOCALE_AT + 1,
    linkIndexAt,
    bytes: { open: linkIndexAt + MAC_BYTES, click: linkIndexAt + LINK_INDEX_BYTES + MAC_BYTES },
  };
}

const LAYOUT = layoutOf(VERSION, 1);
const LAYOUT_WITHOUT_SOURCE = layoutOf(VERSION_WITHOUT_SOURCE, 0);

/** The token's length in characters: 64 for an open, 67 for a click. */
export const OPEN_TOKEN_LENGTH = base64urlLength(LAYOUT.bytes.open);
export const CLICK_TOKEN_LENGTH = base64urlLength(LAYOUT.bytes.click);

/** Each length a genuine token may have (both layouts, both kinds), and its layout. */
const LAYOUTS_BY_LENGTH = new Map<number, { layout: Layout; bytes: number }>(
  [LAYOUT, LAYOUT_WITHOUT_SOURCE].flatMap((layout) =>
    [layout.bytes.open, layout.bytes.click].map(
      (bytes) => [base64urlLength(bytes), { layout, bytes }] as const,
    ),
  ),
);

const CAMPAIGN_ID = /^[0-9a-f]{24}$/i;

/** The open pixel's token. Throws on a payload only a bug of ours can make. */
export function signOpenToken(
  key: TrackingTokenKey,
  payload: Omit<OpenTokenPayload, 'kind'>,
): string {
  return recipientTrackingTokens(key, payload).open();
}

/** A tracked link's token. Throws on a payload only a bug of ours can make. */
export function signClickToken(
  key: TrackingTokenKey,
  { linkIndex, ...payload }: Omit<ClickTokenPayload, 'kind'>,
): string {
  return recipientTrackingTokens(key, payload).click(linkIndex);
}

/** One mail's tracking tokens: its pixel's, and each tracked link's. */
export interface RecipientTrackingTokens {
  open(): string;
  click(linkIndex: number): string;
}

/**
 * The tokens of one mail, which differ only in their kind and link: the
 * fields they share are checked and laid out once, and each token is then
 * those bytes, its own and its MAC, written into one buffer. Throws on a
 * payload only a bug of ours can make.
 */
export function recipientTrackingTokens(
  key: TrackingTokenKey,
  { campaignId, recipientKey, sentAt, locale, source }: Omit<OpenTokenPayload, 'kind'>,
): RecipientTrackingTokens {
  const shared = Buffer.allocUnsafe(LAYOUT.linkIndexAt);
  shared[0] = VERSION;
  shared.write(campaignIdHex(campaignId), CAMPAIGN_AT, 'hex');
  recipientKeyBytesOf(recipientKey).copy(shared, RECIPIENT_AT);
  shared.writeUInt32BE(sentAtSeconds(sentAt), SENT_AT_AT);
  shared[LOCALE_AT] = localeIndex(locale);
  shared[LOCALE_AT + 1] = sourceByte(source);
  return {
    open: () => sealed(key, shared, 'open'),
    click: (linkIndex) => sealed(key, shared, 'click', linkIndex),
  };
}

const SENT_AT_MAX_SECONDS = 0xffffffff;

function sentAtSeconds(sentAt: Date): number {
  const seconds = Math.floor(sentAt.getTime() / 1000);
  if (!(seconds >= 0 && seconds <= SENT_AT_MAX_SECONDS)) {
    throw new RangeError('A sending time is between 1970 and 2106');
  }
  return seconds;
}

function localeIndex(locale: Locale): number {
  const index = LOCALES.indexOf(locale);
  if (index < 0) throw new RangeError(`A language is one of ${LOCALES.join(', ')}`);
  return index;
}

function sourceByte(source: number | null): number {
  if (source === null) return UNKNOWN_SOURCE;
  if (!(Number.isInteger(source) && source >= 0 && source < UNKNOWN_SOURCE)) {
    throw new RangeError(`A source is an integer from 0 to ${UNKNOWN_SOURCE - 1}, or null`);
  }
  return source;
}

function campaignIdHex(campaignId: string): string {
  if (!CAMPAIGN_ID.test(campaignId)) throw new RangeError('A campaign id is 24 hex digits');
  return campaignId;
}

function recipientKeyBytesOf(recipientKey: string): Buffer {
  const bytes = recipientKeyBytes(recipientKey);
  if (!bytes) throw new RangeError('A recipient key is what recipientKeyOf answers');
  return bytes;
}

function checkedLinkIndex(linkIndex: number): number {
  if (!isLinkIndex(linkIndex)) {
    throw new RangeError(`A link index is an integer from 0 to ${TRACKED_LINKS_MAX}`);
  }
  return linkIndex;
}

function isLinkIndex(linkIndex: number): boolean {
  return Number.isInteger(linkIndex) && linkIndex >= 0 && linkIndex <= TRACKED_LINKS_MAX;
}

/** Room for one token of `bytes` bytes, and the part its MAC signs. */
function tokenRoom(bytes: number): { token: Buffer; signed: Buffer } {
  const token = Buffer.allocUnsafeSlow(bytes);
  return { token, signed: token.subarray(0, bytes - MAC_BYTES) };
}

/**
 * Where each token is laid out before it is written as text, reused: a
 * token is made whole in one call, and a mail makes one per tracked link.
 */
const TOKEN_ROOMS = { open: tokenRoom(LAYOUT.bytes.open), click: tokenRoom(LAYOUT.bytes.click) };

/** A token of its layout's length: the shared fields, its kind, its link if any, then its MAC. */
function sealed(
  key: TrackingTokenKey,
  shared: Buffer,
  kind: TrackingTokenPayload['kind'],
  linkIndex?: number,
): string {
  const { token, signed } = TOKEN_ROOMS[kind];
  shared.copy(token);
  token[1] = KIND_BYTES[kind];
  if (linkIndex !== undefined) token.writeUInt16BE(checkedLinkIndex(linkIndex), LAYOUT.linkIndexAt);
  token.write(key.sign(signed, 'binary'), signed.length, MAC_BYTES, 'binary');
  return token.toString('base64url');
}

function macOf(key: TrackingTokenKey, body: Buffer): Buffer {
  return createHmac('sha256', key.macKey).update(body).digest().subarray(0, MAC_BYTES);
}

/**
 * What a genuine token names, or null for anything else: forged, altered,
 * truncated, padded, of another kind or version, or not canonical base64url.
 * The length is checked before anything is decoded, so a huge text costs
 * nothing; never throws.
 */
export function verifyTrackingToken(
  key: TrackingTokenKey,
  text: string,
): TrackingTokenPayload | null {
  const known = LAYOUTS_BY_LENGTH.get(text.length);
  const bytes = known ? bytesOfBase64url(text, known.bytes) : undefined;
  if (!known || !bytes || bytes[0] !== known.layout.version) return null;
  const kind = kindOf(bytes, known.layout);
  if (!kind || !hasGenuineMac(key, bytes)) return null;
  return payloadOf(kind, bytes, known.layout);
}

/** A genuine open token's payload; null for a click token or anything else. */
export function verifyOpenToken(key: TrackingTokenKey, text: string): OpenTokenPayload | null {
  const payload = verifyTrackingToken(key, text);
  return payload?.kind === 'open' ? payload : null;
}

/** A genuine click token's payload; null for an open token or anything else. */
export function verifyClickToken(key: TrackingTokenKey, text: string): ClickTokenPayload | null {
  const payload = verifyTrackingToken(key, text);
  return payload?.kind === 'click' ? payload : null;
}

/** The kind the kind byte names, if the token has that kind's length in its layout. */
function kindOf(bytes: Buffer, layout: Layout): TrackingTokenPayload['kind'] | undefined {
  const kind =
    bytes[1] === KIND_BYTES.open ? 'open' : bytes[1] === KIND_BYTES.click ? 'click' : undefined;
  return kind && bytes.length === layout.bytes[kind] ? kind : undefined;
}

function hasGenuineMac(key: TrackingTokenKey, bytes: Buffer): boolean {
  const macAt = bytes.length - MAC_BYTES;
  return timingSafeEqual(macOf(key, bytes.subarray(0, macAt)), bytes.subarray(macAt));
}

/** The source a token names: null in version 1, and for the byte of an unknown source. */
function sourceOf(bytes: Buffer, layout: Layout): number | null {
  const source =
    layout.sourceAt === null ? UNKNOWN_SOURCE : (bytes[layout.sourceAt] ?? UNKNOWN_SOURCE);
  return source === UNKNOWN_SOURCE ? null : source;
}

function payloadOf(
  kind: TrackingTokenPayload['kind'],
  bytes: Buffer,
  layout: Layout,
): TrackingTokenPayload | null {
  const campaignId = bytes.toString('hex', CAMPAIGN_AT, RECIPIENT_AT);
  const recipientKey = bytes.toString('base64url', RECIPIENT_AT, SENT_AT_AT);
  const sentAt = new Date(bytes.readUInt32BE(SENT_AT_AT) * 1000);
  const locale = LOCALES[bytes[LOCALE_AT] ?? LOCALES.length];
  if (!locale) return null;
  const source = sourceOf(bytes, layout);
  if (kind === 'open') return { kind, campaignId, recipientKey, sentAt, locale, source };
  const linkIndex = bytes.readUInt16BE(layout.linkIndexAt);
  return isLinkIndex(linkIndex)
    ? { kind, campaignId, linkIndex, recipientKey, sentAt, locale, source }
    : null;
}
