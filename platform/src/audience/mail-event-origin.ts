import {
  LEGACY_IDENTITY_WINDOW_DAYS,
  campaignRoundIdentities,
  wasInRound,
  type CampaignRoundIdentities,
} from '../campaigns/campaign-round-identities';
import {
  namesRecipient,
  mailsInMessageIds,
  mailsInReturnPaths,
  type MailIdentityKey,
  type NamedMail,
} from '../mail/mail-identity';
import { normalizeEmail } from '../mail/email-address';

/** Why an event was not taken as one about a mail of ours. */
export type UnmatchedReason =
  /** No Message-ID or return path of our form. */
  | 'names-no-mail-of-ours'
  /** It names a mail of ours, but to another recipient (or the digest is made up). */
  | 'another-recipient'
  /** The campaign round it names was never sent. */
  | 'unknown-round'
  /** An unkeyed (SHA-1) identity naming a round sent with keyed ones. */
  | 'legacy-identity-of-keyed-round'
  /** An unkeyed identity of a round begun more than the window ago. */
  | 'legacy-window-closed'
  /** An unkeyed identity of a round whose ledger does not hold that recipient. */
  | 'legacy-identity-not-in-round';

export type MailEventOrigin =
  | { ours: true; campaign?: { campaignId: string; round: number } }
  | { ours: false; reason: UnmatchedReason };

/** What the checks of one batch of events share: each round is read once. */
export type RoundLookups = Map<string, Promise<CampaignRoundIdentities | undefined>>;

export interface OriginChecks {
  key: MailIdentityKey;
  now: Date;
  rounds: RoundLookups;
}

const DAY_MS = 24 * 3600 * 1000;

type CampaignMail = Extract<NamedMail, { kind: 'campaign' }>;

function roundOf(mail: CampaignMail, rounds: RoundLookups) {
  const id = `${mail.campaignId}:${mail.round}`;
  let found = rounds.get(id);
  if (!found) {
    found = campaignRoundIdentities(mail.campaignId, mail.round);
    rounds.set(id, found);
  }
  return found;
}

/**
 * A campaign mail whose digest is this recipient's: its round must have
 * been sent. A keyed digest proves the rest (only we hold the key). An
 * unkeyed one, which anyone can compute, is taken only for a round begun
 * before keyed identities, within the window, to someone its ledger holds.
 */
async function checkCampaignMail(
  mail: CampaignMail,
  email: string,
  { now, rounds }: OriginChecks,
): Promise<MailEventOrigin> {
  const round = await roundOf(mail, rounds);
  if (!round) return { ours: false, reason: 'unknown-round' };
  const campaign = { campaignId: mail.campaignId, round: mail.round };
  if (mail.keyed) return { ours: true, campaign };
  if (round.keyed) return { ours: false, reason: 'legacy-identity-of-keyed-round' };
  if (now.getTime() - round.startedAt.getTime() > LEGACY_IDENTITY_WINDOW_DAYS * DAY_MS) {
    return { ours: false, reason: 'legacy-window-closed' };
  }
  if (!(await wasInRound(mail.campaignId, mail.round, normalizeEmail(email)))) {
    return { ours: false, reason: 'legacy-identity-not-in-round' };
  }
  return { ours: true, campaign };
}

/** The mails an event names: its Message-IDs first, then its return paths. */
function namedMails(event: {
  messageIds?: readonly string[];
  returnPaths?: readonly string[];
}): NamedMail[] {
  return [
    ...(event.messageIds ?? []).flatMap(mailsInMessageIds),
    ...(event.returnPaths ?? []).flatMap(mailsInReturnPaths),
  ];
}

/**
 * Whether an event is about a mail we sent to the recipient it names, and
 * which campaign round that was. The first named mail that passes decides;
 * when none does, the reason is that of the last one written for this
 * recipient, else that none names this recipient.
 */
export async function originOfMailEvent(
  event: { email: string; messageIds?: readonly string[]; returnPaths?: readonly string[] },
  checks: OriginChecks,
): Promise<MailEventOrigin> {
  const mails = namedMails(event);
  let refused: MailEventOrigin = {
    ours: false,
    reason: mails.length > 0 ? 'another-recipient' : 'names-no-mail-of-ours',
  };
  for (const mail of mails) {
    if (!namesRecipient(checks.key, mail, event.email)) continue;
    if (mail.kind === 'transactional') return { ours: true };
    const origin = await checkCampaignMail(mail, event.email, checks);
    if (origin.ours) return origin;
    refused = origin;
  }
  return refused;
}
