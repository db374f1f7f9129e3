import type {
  AudienceTarget,
  CampaignRecipient,
  CampaignStatus,
  EnquiryLawfulBasis,
  LedgerState,
  RecipientType,
  SendingWindow,
} from '@agency/contracts';
import type { WalkKeys } from '../audience/walk-keys';
import type { CampaignMail } from './rendering/campaign.template';
import type { TestRecipientRefusal } from './test-recipients';

export type { CampaignMail } from './rendering/campaign.template';

/** A campaign's send state without its mail: what a batch or the dispatch reads again and again. */
export interface CampaignSendState {
  id: string;
  status: CampaignStatus;
  recipientType: RecipientType;
  /** The lists a campaign of type `lists` goes to. */
  listIds: string[];
  /** The segments a campaign of type `segments` goes to. */
  segmentIds: string[];
  /** The basis on which enquiry contacts who did not consent are mailed too; null: they are not. */
  enquiryLawfulBasis: EnquiryLawfulBasis | null;
  /** 1 for the first send, one more per "resend to the failed". */
  round: number;
  /** 1, one more per resume: a new pass queues the round's owed batches again. */
  pass: number;
  /** Sent in the rounds before this one. */
  roundBaseSent: number;
  /** The version of the round's counters last folded into the campaign. */
  countersVersion: number;
  /** The last round whose whole audience is in the ledger. */
  dispatchedRound: number;
  /** Stamped by every send, resume and resend: the compiled mail is kept while it stays. */
  queuedAt: Date | null;
  /** Moves with every write, a counter fold included: a send that stops moving it has stalled. */
  updatedAt: Date;
  /** Outside these hours on the agency's clock its batches wait; null: any time. */
  sendingWindow: SendingWindow | null;
  /** This campaign's own pace in mails per minute; null: only the global cap. */
  ratePerMinute: number | null;
}

/** A campaign's tracking as its send reads it: the switches, then the key and link table of its start. */
export interface CampaignSendTracking {
  opens: boolean;
  clicks: boolean;
  /** Made when the first round's dispatch starts; null before, and once destroyed. */
  key: string | null;
  /** The key was destroyed (retention): a later round is sent untracked, never under a new key. */
  keyDestroyed: boolean;
  /** The tracked links' targets; a link's index is its place. Never changes once the key is made. */
  links: string[];
}

/** A scheduled campaign whose time has come: its id and the time it was scheduled for. */
export interface DueSchedule {
  id: string;
  scheduledAt: Date;
}

export type LedgerOutcome =
  { state: 'sent'; attempts: number } | { state: 'failed'; reason: string; attempts: number };

/** A recipient's outcome, by its position in its batch. */
export interface PositionedOutcome {
  position: number;
  email: string;
  outcome: LedgerOutcome;
}

/** A batch as the ledger holds it: its recipients and, for each, its state. */
export interface LedgerBatch {
  seq: number;
  recipients: CampaignRecipient[];
  states: LedgerState[];
}

export interface RoundCounts {
  sent: number;
  failed: number;
  /** Grows with every change, so a late fold never replaces a newer one. */
  version: number;
}

/** What the round's ledger says when Redis cannot: its size and outcomes, and what is owed. */
export interface LedgerTally {
  recipients: number;
  sent: number;
  failed: number;
  owedBatches: number;
}

/**
 * What the campaign engine needs from the store, and nothing more: the
 * campaign's state and mail, its audience, and the ledger of one document
 * per batch. `mongo-campaign-store.ts` implements it over the module's models.
 */
export interface CampaignStore {
  sendState(campaignId: string): Promise<CampaignSendState | null>;
  mail(
    campaignId: string,
  ): Promise<(CampaignMail & { queuedAt: Date | null; tracking: CampaignSendTracking }) | null>;
  /**
   * Stores the send's tracking key and link table, with the agency's mode as
   * its settings say now, unless the campaign has a key, or had one: answers
   * the campaign's tracking as stored, whoever wrote it.
   */
  startTracking(
    campaignId: string,
    start: { key: string; links: readonly string[] },
  ): Promise<CampaignSendTracking | null>;
  /** queued -> sending; answers the campaign as it is now. */
  beginSending(campaignId: string): Promise<CampaignSendState | null>;

  /**
   * The recipients of a first send, one per normalised address, without the
   * suppressed and the unsubscribed: the walk the API counts before a send.
   * `met` keeps who was met already (and may say so of whoever it was told
   * of before the walk).
   */
  audience(target: AudienceTarget, met: WalkKeys): AsyncIterable<CampaignRecipient>;
  /** How many `audience` would yield now: the first round's total, known before its first batch. */
  countAudience(target: AudienceTarget, met: WalkKeys): Promise<number>;
  /** Why a test send may not go to `email` (not staff nor allowed, suppressed, unsubscribed), or null. */
  testRecipientRefusal(email: string): Promise<TestRecipientRefusal | null>;
  /** The recipients of a resend: those whose mail failed in `round`, without the suppressed and the unsubscribed. */
  failedRecipients(campaignId: string, round: number): AsyncIterable<CampaignRecipient>;

  /** The round's batches already in the ledger, in no particular order. */
  roundBatches(campaignId: string, round: number): AsyncIterable<LedgerBatch>;
  /** New batches, every recipient pending; a batch already there is left as it is. */
  addBatches(
    campaignId: string,
    round: number,
    batches: readonly { seq: number; recipients: readonly CampaignRecipient[] }[],
  ): Promise<void>;
  /** A batch run's outcomes; an outcome already in the ledger stays as it is. */
  recordOutcomes(
    campaignId: string,
    round: number,
    seq: number,
    outcomes: readonly PositionedOutcome[],
  ): Promise<void>;

  /**
   * The first round's audience as counted before its batches are queued
   * (the progress bar's total); left as it is once the round is dispatched.
   */
  recordTotal(campaignId: string, total: number): Promise<void>;
  /**
   * Every recipient of the round is in a batch of the ledger: the first
   * round's total is exact, and so are its mails per source (kept for the
   * first round only, as `total`).
   */
  markDispatched(
    campaignId: string,
    round: number,
    total: number,
    mailsPerSource: Readonly<Record<string, number>>,
  ): Promise<void>;
  foldCounters(campaign: CampaignSendState, counts: RoundCounts): Promise<void>;
  /** sent (or failed when nobody received it), unless paused meanwhile or cancelled. */
  finishRound(campaign: CampaignSendState, counts: RoundCounts): Promise<CampaignStatus | null>;

  /**
   * scheduled -> queued, if the campaign is still scheduled for `scheduledAt`:
   * answers whether this call moved it (a second call for the same time does not).
   */
  startScheduled(campaignId: string, scheduledAt: Date): Promise<boolean>;
  /** Scheduled campaigns whose time is past: their delayed job may be lost. */
  dueSchedules(now: Date): Promise<DueSchedule[]>;

  /** Campaigns queued longer ago than `olderThanMs`: their dispatch may never have been added. */
  stuckQueued(olderThanMs: number): Promise<CampaignSendState[]>;
  /** Campaigns sending whose state has not moved for `olderThanMs`: their jobs may be lost. */
  stalledSending(olderThanMs: number): Promise<CampaignSendState[]>;
}
