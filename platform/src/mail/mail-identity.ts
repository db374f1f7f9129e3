import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { derivedKeyBytes } from '../derived-key';
import { hmacSha256Of, type HmacSha256 } from '../hmac-sha256';
import { normalizeEmail } from './email-address';

/**
 * What names one mail to one recipient, so that a bounce or a complaint
 * coming back later can be checked against a mail we really sent: the
 * Message-ID of every mail (campaign and transactional), and the envelope
 * sender (return path) of campaign mail when one is set up. Both are derived,
 * never stored per mail.
 *
 * The recipient part is a keyed digest: HMAC-SHA-256 under a key derived
 * from MAIL_LINK_SECRET, over the mail's name (`campaign-<id>-r<round>`,
 * `contact-ack-<id>`...) and the recipient's normalised address. Without the
 * key nobody can write the digest of an address, and a digest read in one
 * mail names that mail alone. It is marked with a `k` so that the SHA-1
 * digests of earlier versions (an unkeyed hash of the address alone, which
 * anyone can compute) are told apart and accepted only where they are due.
 */
export interface MailIdentityKey {
  readonly digestKey: Buffer;
}

/**
 * HKDF gives the identities a key of their own: MAIL_LINK_SECRET also signs
 * the newsletter's links, and a digest never reveals anything of it.
 */
const HKDF_SALT = 'agency mail identities';
const HKDF_INFO = 'message-id and return-path recipient digest, version k';

export function mailIdentityKey(mailLinkSecret: string): MailIdentityKey {
  return {
    digestKey: derivedKeyBytes(mailLinkSecret, HKDF_SALT, HKDF_INFO),
  };
}

/**
 * 20 hex digits, 80 bits of the HMAC: a digest can only be checked by us, one
 * report at a time, so guessing one takes about 2^79 reports; 80 bits is
 * above the 64 NIST SP 800-107 asks of a truncated MAC, and keeps a return
 * path's local part (`bounces+c<24>.r<round>.k<20>`) within SMTP's 64 characters.
 */
const DIGEST_HEX_LENGTH = 20;
/** Marks a keyed digest; an earlier SHA-1 digest is 20 bare hex digits. */
const KEYED_MARK = 'k';

/** What the recipient digest signs: the mail's name and the normalised address. */
const digestInputOf = (mailName: string, address: string) =>
  `${mailName}\n${normalizeEmail(address)}`;

export function keyedRecipientDigest(
  key: MailIdentityKey,
  mailName: string,
  address: string,
): string {
  return createHmac('sha256', key.digestKey)
    .update(digestInputOf(mailName, address))
    .digest('hex')
    .slice(0, DIGEST_HEX_LENGTH);
}

const keyedMessageId = (mailName: string, digest: string, domain: string) =>
  `<${mailName}-${KEYED_MARK}${digest}@${domain}>`;

function keyedReturnPath(base: string, campaignId: string, round: number, digest: string): string {
  const at = base.lastIndexOf('@');
  return `${base.slice(0, at)}+c${campaignId}.r${round}.${KEYED_MARK}${digest}${base.slice(at)}`;
}

/** The unkeyed digest of earlier versions: SHA-1 of the normalised address. */
export function legacyRecipientDigest(address: string): string {
  return createHash('sha1')
    .update(normalizeEmail(address))
    .digest('hex')
    .slice(0, DIGEST_HEX_LENGTH);
}

/** The name of one round of a campaign, as its identities carry it. */
export function campaignMailName(campaignId: string, round: number): string {
  return `campaign-${campaignId}-r${round}`;
}

/**
 * `<contact-ack-<id>-k<digest>@domain>`: a transactional mail's Message-ID.
 * `mailName` says which mail it is (kind and ids, lower-case letters, digits
 * and hyphens) and is stable, so a duplicate is recognisable as one.
 */
export function mailMessageId(
  key: MailIdentityKey,
  mailName: string,
  address: string,
  domain: string,
): string {
  return keyedMessageId(mailName, keyedRecipientDigest(key, mailName, address), domain);
}

/** Stable per recipient and round: a duplicate is recognisable as one at the receiving end. */
export function campaignMessageId(
  key: MailIdentityKey,
  campaignId: string,
  round: number,
  address: string,
  domain: string,
): string {
  return mailMessageId(key, campaignMailName(campaignId, round), address, domain);
}

/**
 * A per-recipient envelope sender (VERP): `bounces@agency.tn` becomes
 * `bounces+c<campaign>.r<round>.k<digest>@agency.tn`, so a server that
 * returns the mail without its headers still names the mail and recipient.
 */
export function campaignReturnPath(
  key: MailIdentityKey,
  base: string,
  campaignId: string,
  round: number,
  address: string,
): string {
  const digest = keyedRecipientDigest(key, campaignMailName(campaignId, round), address);
  return keyedReturnPath(base, campaignId, round, digest);
}

/** One campaign mail's identities: its Message-ID, and its return path when bounces come back to one. */
export interface CampaignMailIdentity {
  messageId: string;
  returnPath: string | undefined;
}

/** The identity key's HMAC, padded once per key: a campaign send signs a digest per mail. */
const digestMacs = new WeakMap<MailIdentityKey, HmacSha256>();

function digestMacOf(key: MailIdentityKey): HmacSha256 {
  let mac = digestMacs.get(key);
  if (!mac) {
    mac = hmacSha256Of(key.digestKey);
    digestMacs.set(key, mac);
  }
  return mac;
}

/**
 * What `campaignMessageId` and `campaignReturnPath` (when `returnPathBase`
 * is given) make for one recipient, from one digest: both name the same
 * mail and recipient, and a campaign send makes both for every mail.
 */
export function campaignMailIdentity(
  key: MailIdentityKey,
  campaignId: string,
  round: number,
  address: string,
  domain: string,
  returnPathBase?: string,
): CampaignMailIdentity {
  const mailName = campaignMailName(campaignId, round);
  const digest = digestMacOf(key)(digestInputOf(mailName, address), 'hex').slice(
    0,
    DIGEST_HEX_LENGTH,
  );
  return {
    messageId: keyedMessageId(mailName, digest, domain),
    returnPath: returnPathBase
      ? keyedReturnPath(returnPathBase, campaignId, round, digest)
      : undefined,
  };
}

/** A mail an event names, as read from a Message-ID or a return path; not yet checked. */
export type NamedMail =
  | {
      kind: 'campaign';
      campaignId: string;
      round: number;
      digest: string;
      /** False: a SHA-1 digest of an earlier version. */
      keyed: boolean;
    }
  | { kind: 'transactional'; mailName: string; digest: string; keyed: true };

const KEYED_MESSAGE_ID = /^([a-z0-9][a-z0-9-]{0,200})-k([0-9a-f]{20})@[^@]+$/i;
const CAMPAIGN_NAME = /^campaign-([0-9a-f]{24})-r(\d{1,6})$/i;
const LEGACY_MESSAGE_ID = /^campaign-([0-9a-f]{24})-r(\d{1,6})-([0-9a-f]{20})@[^@]+$/i;
/**
 * What separates Message-IDs in a header or a quoted text (their brackets
 * included): split first, then each piece is matched from its start, so a
 * text of any size (a report can quote a megabyte) is read in linear time.
 */
const ID_SEPARATORS = /[\s<>,;:"'()[\]]+/;

function campaignOf(campaignId: string, round: string, digest: string, keyed: boolean): NamedMail {
  return {
    kind: 'campaign',
    campaignId: campaignId.toLowerCase(),
    round: Number(round),
    digest: digest.toLowerCase(),
    keyed,
  };
}

function mailOfMessageId(id: string): NamedMail | undefined {
  const keyed = KEYED_MESSAGE_ID.exec(id);
  if (keyed) {
    const [, mailName, digest] = keyed as unknown as [string, string, string];
    const campaign = CAMPAIGN_NAME.exec(mailName);
    if (campaign) return campaignOf(campaign[1] as string, campaign[2] as string, digest, true);
    return { kind: 'transactional', mailName, digest: digest.toLowerCase(), keyed: true };
  }
  const legacy = LEGACY_MESSAGE_ID.exec(id);
  if (!legacy) return undefined;
  return campaignOf(legacy[1] as string, legacy[2] as string, legacy[3] as string, false);
}

/**
 * The mails of ours (by their form) the Message-IDs in a text name: one
 * Message-ID with or without its brackets, a References header, or a quoted
 * header block, as providers hand them over.
 */
export function mailsInMessageIds(text: string): NamedMail[] {
  return text
    .split(ID_SEPARATORS)
    .map(mailOfMessageId)
    .filter((mail): mail is NamedMail => mail !== undefined);
}

const RETURN_PATH = /\+c([0-9a-f]{24})\.r(\d{1,6})\.(k?)([0-9a-f]{20})@/gi;

/** The campaign mails the per-recipient return paths in a text name. */
export function mailsInReturnPaths(text: string): NamedMail[] {
  return [...text.matchAll(RETURN_PATH)].map((match) => {
    const [, campaignId, round, mark, digest] = match as unknown as [
      string,
      string,
      string,
      string,
      string,
    ];
    return campaignOf(campaignId, round, digest, mark !== '');
  });
}

function sameDigest(a: string, b: string): boolean {
  return a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));
}

/** Whether a named mail's digest is the one we would have written for this recipient. */
export function namesRecipient(key: MailIdentityKey, mail: NamedMail, address: string): boolean {
  if (!mail.keyed) return sameDigest(mail.digest, legacyRecipientDigest(address));
  const name =
    mail.kind === 'campaign' ? campaignMailName(mail.campaignId, mail.round) : mail.mailName;
  return sameDigest(mail.digest, keyedRecipientDigest(key, name, address));
}
