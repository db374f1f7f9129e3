import { createHash } from 'node:crypto';

/**
 * What names one campaign mail to one recipient, so that a bounce or a
 * complaint coming back later finds its campaign and recipient: the
 * Message-ID, and the envelope sender (return path) when one is set up.
 * Both are derived from the campaign, the round and the recipient's
 * normalised address, never stored per mail.
 */
export interface CampaignMailIdentity {
  campaignId: string;
  round: number;
  /** The first 20 hex digits of SHA-1 of the recipient's normalised address. */
  digest: string;
}

export function recipientDigest(key: string): string {
  return createHash('sha1').update(key).digest('hex').slice(0, 20);
}

/** Stable per recipient and round: a duplicate is recognisable as one at the receiving end. */
export function campaignMessageId(
  campaignId: string,
  round: number,
  key: string,
  domain: string,
): string {
  return `<campaign-${campaignId}-r${round}-${recipientDigest(key)}@${domain}>`;
}

const MESSAGE_ID = /<?campaign-([0-9a-f]{24})-r(\d{1,6})-([0-9a-f]{20})@[^>\s]+>?/i;

/** The campaign mail a Message-ID (with or without its angle brackets) names, if it is one of ours. */
export function parseCampaignMessageId(value: string): CampaignMailIdentity | undefined {
  const match = MESSAGE_ID.exec(value);
  if (!match) return undefined;
  return {
    campaignId: (match[1] as string).toLowerCase(),
    round: Number(match[2]),
    digest: (match[3] as string).toLowerCase(),
  };
}

/**
 * A per-recipient envelope sender (VERP): `bounces@agency.tn` becomes
 * `bounces+c<campaign>.r<round>.<digest>@agency.tn`, so a server that
 * returns the mail without its headers still names the recipient.
 */
export function campaignReturnPath(
  base: string,
  campaignId: string,
  round: number,
  key: string,
): string {
  const at = base.lastIndexOf('@');
  return `${base.slice(0, at)}+c${campaignId}.r${round}.${recipientDigest(key)}${base.slice(at)}`;
}

const RETURN_PATH = /\+c([0-9a-f]{24})\.r(\d{1,6})\.([0-9a-f]{20})@/i;

export function parseCampaignReturnPath(value: string): CampaignMailIdentity | undefined {
  const match = RETURN_PATH.exec(value);
  if (!match) return undefined;
  return {
    campaignId: (match[1] as string).toLowerCase(),
    round: Number(match[2]),
    digest: (match[3] as string).toLowerCase(),
  };
}
