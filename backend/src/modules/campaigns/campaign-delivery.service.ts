import { Types, trusted } from 'mongoose';
import type { CampaignRecipient, CampaignStatus, RecipientType } from '@agency/contracts';
import { ContactModel } from '../contact/store';
import { SubscriberModel, normalizeEmail } from '../newsletter/store';
import { CampaignModel, type Campaign } from './campaign.model';
import { CampaignRecipientModel, outcomeFactId, pendingFactId } from './campaign-recipient.model';

/** A whole campaign as the worker reads it: its mail (subject, content) and its send's state. */
export type CampaignForSend = Campaign & { _id: Types.ObjectId };

export function findCampaignForSend(campaignId: string): Promise<CampaignForSend | null> {
  return CampaignModel.findById(campaignId).lean<CampaignForSend>().exec();
}

/** A campaign's send state without its mail: what a batch or the dispatch reads again and again. */
export type CampaignSendState = Omit<CampaignForSend, 'subject' | 'content'>;

/**
 * The campaign without its subject and content, by `_id`: the content can be
 * 100,000 characters and a send reads the state once per batch, while a
 * worker compiles the mail once (it cannot change once the draft is sent).
 */
export function findCampaignSendState(campaignId: string): Promise<CampaignSendState | null> {
  return CampaignModel.findById(campaignId)
    .select({ subject: 0, content: 0 })
    .lean<CampaignSendState>()
    .exec();
}

/** Statuses in which the recipients' mails are still owed. */
export const SENDING_STATUSES: readonly CampaignStatus[] = ['queued', 'sending'];

/**
 * queued -> sending when the dispatch starts; startedAt is the first start
 * only (a resume keeps it). Answers the campaign as it is now.
 */
export async function beginSending(campaignId: string): Promise<CampaignForSend | null> {
  const campaign = await findCampaignForSend(campaignId);
  if (!campaign || campaign.status !== 'queued') return campaign;
  return CampaignModel.findOneAndUpdate(
    { _id: campaignId, status: 'queued' },
    { $set: { status: 'sending', ...(campaign.startedAt ? {} : { startedAt: new Date() }) } },
    { returnDocument: 'after' },
  )
    .lean<CampaignForSend>()
    .exec();
}

function recipientOf(email: string, firstName: string, locale: string): CampaignRecipient {
  return { key: normalizeEmail(email), email: email.trim(), firstName, locale };
}

async function unsubscribedKeys(): Promise<Set<string>> {
  const keys = new Set<string>();
  const cursor = SubscriberModel.find({ status: 'unsubscribed' }, { email: 1 }).lean().cursor();
  for await (const subscriber of cursor) keys.add(normalizeEmail(subscriber.email));
  return keys;
}

/**
 * The recipients of a first send, streamed with cursors in a stable order
 * (`_id`), one per normalised address, without anyone who unsubscribed.
 * `contacts` are the enquiries' senders, `subscribers` the confirmed
 * newsletter subscribers, `all` both (a contact first: it has a name).
 */
export async function* streamRecipients(
  recipientType: RecipientType,
): AsyncGenerator<CampaignRecipient> {
  const excluded = await unsubscribedKeys();
  const seen = new Set<string>();
  function* fresh(recipient: CampaignRecipient) {
    if (excluded.has(recipient.key) || seen.has(recipient.key)) return;
    seen.add(recipient.key);
    yield recipient;
  }
  if (recipientType !== 'subscribers') {
    const contacts = ContactModel.find({}, { email: 1, firstName: 1, locale: 1 })
      .sort({ _id: 1 })
      .lean()
      .cursor({ batchSize: 1000 });
    for await (const contact of contacts) {
      yield* fresh(recipientOf(contact.email, contact.firstName, contact.locale));
    }
  }
  if (recipientType !== 'contacts') {
    const subscribers = SubscriberModel.find({ status: 'confirmed' }, { email: 1, locale: 1 })
      .sort({ _id: 1 })
      .lean()
      .cursor({ batchSize: 1000 });
    for await (const subscriber of subscribers) {
      yield* fresh(recipientOf(subscriber.email, '', subscriber.locale));
    }
  }
}

/**
 * The recipients of a resend: those whose latest round failed, less anyone
 * who unsubscribed since.
 */
export async function* streamFailedRecipients(
  campaignId: string,
  previousRound: number,
): AsyncGenerator<CampaignRecipient> {
  const excluded = await unsubscribedKeys();
  const failed = CampaignRecipientModel.find({
    campaign: new Types.ObjectId(campaignId),
    round: previousRound,
    state: 'failed',
  })
    .sort({ _id: 1 })
    .lean()
    .cursor({ batchSize: 1000 });
  for await (const fact of failed) {
    const recipient = recipientOf(fact.email, fact.firstName ?? '', fact.locale ?? 'en');
    if (!excluded.has(recipient.key)) yield recipient;
  }
}

export type LedgerOutcome =
  { state: 'sent'; attempts: number } | { state: 'failed'; reason: string; attempts: number };

interface LedgerFact {
  _id: string;
  campaign: Types.ObjectId;
  round: number;
  state: 'pending' | 'sent' | 'failed';
  email: string;
  firstName: string;
  locale: string;
  reason?: string;
  attempts?: number;
  at: Date;
}

const DUPLICATE_KEY = 11000;

/**
 * Appends facts in one unordered bulk insert. A fact already there (the same
 * batch replayed after a crash) is a duplicate key and is skipped; any other
 * error is thrown.
 */
async function appendFacts(facts: LedgerFact[]): Promise<void> {
  if (facts.length === 0) return;
  try {
    // lean: the facts are built here already cast; no hydration, no validation pass.
    await CampaignRecipientModel.insertMany(facts, { ordered: false, lean: true });
  } catch (error) {
    const writeErrors = (error as { writeErrors?: { code?: number }[] }).writeErrors;
    const onlyDuplicates =
      Array.isArray(writeErrors) &&
      writeErrors.length > 0 &&
      writeErrors.every((writeError) => writeError.code === DUPLICATE_KEY);
    if (!onlyDuplicates) throw error;
  }
}

export function appendPendingFacts(
  campaignId: string,
  round: number,
  recipients: readonly CampaignRecipient[],
): Promise<void> {
  const campaign = new Types.ObjectId(campaignId);
  const at = new Date();
  return appendFacts(
    recipients.map((recipient) => ({
      _id: pendingFactId(campaignId, round, recipient.key),
      campaign,
      round,
      state: 'pending',
      email: recipient.email,
      firstName: recipient.firstName,
      locale: recipient.locale,
      at,
    })),
  );
}

export function appendOutcomeFacts(
  campaignId: string,
  round: number,
  outcomes: readonly { recipient: CampaignRecipient; outcome: LedgerOutcome }[],
): Promise<void> {
  const campaign = new Types.ObjectId(campaignId);
  const at = new Date();
  return appendFacts(
    outcomes.map(({ recipient, outcome }) => ({
      _id: outcomeFactId(campaignId, round, recipient.key),
      campaign,
      round,
      state: outcome.state,
      email: recipient.email,
      firstName: recipient.firstName,
      locale: recipient.locale,
      ...(outcome.state === 'failed' ? { reason: outcome.reason } : {}),
      attempts: outcome.attempts,
      at,
    })),
  );
}

export interface RoundCounts {
  sent: number;
  failed: number;
  /** Grows with every change, so a late fold never replaces a newer one. */
  version: number;
}

/**
 * Copies the round's counters (kept atomically in Redis) into the campaign.
 * Conditional on the version, so concurrent batches folding out of order
 * leave the newest counts.
 */
export async function foldCounters(
  campaign: Pick<CampaignSendState, '_id' | 'round' | 'roundBaseSent'>,
  counts: RoundCounts,
): Promise<void> {
  await CampaignModel.updateOne(
    { _id: campaign._id, round: campaign.round, countersVersion: trusted({ $lt: counts.version }) },
    {
      $set: {
        sentCount: campaign.roundBaseSent + counts.sent,
        failedCount: counts.failed,
        countersVersion: counts.version,
      },
    },
  );
}

/**
 * The first round's recipients counted so far: it grows while the dispatch
 * streams them, and never shrinks when a resume streams them again.
 */
export async function recordTotal(campaignId: string, total: number): Promise<void> {
  await CampaignModel.updateOne({ _id: campaignId, round: 1 }, { $max: { total } });
}

/**
 * Every recipient of the round is settled: `sent`, or `failed` when nobody
 * at all received it. A paused campaign with nothing left to send is done too;
 * a cancelled one stays cancelled.
 */
export async function finishRound(
  campaign: Pick<CampaignSendState, '_id' | 'round' | 'roundBaseSent'>,
  counts: RoundCounts,
): Promise<CampaignStatus | null> {
  const sentCount = campaign.roundBaseSent + counts.sent;
  const status: CampaignStatus = sentCount === 0 && counts.failed > 0 ? 'failed' : 'sent';
  const finished = await CampaignModel.findOneAndUpdate(
    {
      _id: campaign._id,
      round: campaign.round,
      status: trusted({ $in: ['queued', 'sending', 'paused'] }),
    },
    {
      $set: {
        status,
        finishedAt: new Date(),
        sentCount,
        failedCount: counts.failed,
        countersVersion: Math.max(counts.version, 1),
        // Those who were mailed, whoever left the list between two passes.
        ...(campaign.round === 1 ? { total: counts.sent + counts.failed } : {}),
      },
    },
    { returnDocument: 'after' },
  ).lean();
  return finished ? status : null;
}

/** Campaigns marked queued longer ago than `olderThan` ms: their dispatch may never have been added. */
export async function findStuckQueuedCampaigns(
  olderThanMs: number,
): Promise<{ id: string; round: number; pass: number }[]> {
  const cutoff = new Date(Date.now() - olderThanMs);
  const campaigns = await CampaignModel.find(
    { status: 'queued', queuedAt: trusted({ $lt: cutoff }) },
    { round: 1, pass: 1 },
  ).lean();
  return campaigns.map((campaign) => ({
    id: String(campaign._id),
    round: campaign.round,
    pass: campaign.pass,
  }));
}
