import { Types, isValidObjectId, trusted } from 'mongoose';
import {
  DEFAULT_TEMPLATE,
  type CampaignLanguages,
  type CampaignRecipient,
  type CampaignStatus,
  type LedgerState,
  type Locale,
  type SendingWindow,
  UNFINISHED_STATUSES,
} from '@agency/contracts';
import { audienceRecipients, countAudience, excludedKeys } from '../audience/audience';
import { insertUnlessPresent, isDuplicateKeyError } from '../database-errors';
import { campaignSenderOf, readAgencySettings } from '../settings/agency-settings.service';
import { CampaignModel, type Campaign } from './campaign.model';
import { campaignBatchId } from './campaign-batch.model';
import { KEYED_IDENTITIES } from './campaign-round-identities';
import { CampaignTemplateModel } from './campaign-template.model';
import { testRecipientRefusal } from './test-recipients';
import type {
  CampaignSendState,
  CampaignSendTracking,
  CampaignStore,
  LedgerBatch,
  PositionedOutcome,
  RoundCounts,
} from './campaign-store';
import {
  outcomeDocuments,
  rosters,
  type OutcomeLine,
  type RosterDocument,
} from './ledger-collections';

type StoredCampaign = Campaign & { _id: Types.ObjectId };

/** Everything a send reads of the campaign, never its subject and content (up to 100,000 characters). */
const SEND_STATE = {
  status: 1,
  recipientType: 1,
  listIds: 1,
  segmentIds: 1,
  enquiryLawfulBasis: 1,
  round: 1,
  pass: 1,
  roundBaseSent: 1,
  countersVersion: 1,
  dispatchedRound: 1,
  queuedAt: 1,
  updatedAt: 1,
  sendingWindow: 1,
  ratePerMinute: 1,
} as const;

function sendStateOf(campaign: Omit<StoredCampaign, 'subject' | 'content'>): CampaignSendState {
  return {
    id: String(campaign._id),
    status: campaign.status as CampaignStatus,
    recipientType: campaign.recipientType as CampaignSendState['recipientType'],
    listIds: (campaign.listIds ?? []).map(String),
    segmentIds: (campaign.segmentIds ?? []).map(String),
    enquiryLawfulBasis: (campaign.enquiryLawfulBasis ??
      null) as CampaignSendState['enquiryLawfulBasis'],
    round: campaign.round,
    pass: campaign.pass,
    roundBaseSent: campaign.roundBaseSent,
    countersVersion: campaign.countersVersion,
    dispatchedRound: campaign.dispatchedRound ?? 0,
    queuedAt: campaign.queuedAt ?? null,
    updatedAt: campaign.updatedAt,
    sendingWindow: (campaign.sendingWindow as SendingWindow | null | undefined) ?? null,
    ratePerMinute: campaign.ratePerMinute ?? null,
  };
}

function sendTrackingOf({ tracking }: Pick<StoredCampaign, 'tracking'>): CampaignSendTracking {
  return {
    // A campaign stored before tracking existed tracks as the model's defaults say.
    opens: tracking?.opens ?? true,
    clicks: tracking?.clicks ?? true,
    key: tracking?.key ?? null,
    keyDestroyed: Boolean(tracking?.keyDestroyedAt),
    links: tracking?.links ?? [],
  };
}

/**
 * The send's key and link table, in one conditional update: a dispatch that
 * finds a key (another one's, racing it) changes nothing, and every mail of
 * every round is signed under the one stored. Its writers take turns (the
 * campaign's lock), as the embedded store needs for a conditional update to hold.
 */
async function startTracking(
  campaignId: string,
  { key, links }: { key: string; links: readonly string[] },
): Promise<CampaignSendTracking | null> {
  const { mode } = (await readAgencySettings()).tracking;
  await CampaignModel.updateOne(
    { _id: campaignId, 'tracking.key': null, 'tracking.keyDestroyedAt': null },
    { $set: { 'tracking.mode': mode, 'tracking.key': key, 'tracking.links': [...links] } },
  );
  const campaign = await CampaignModel.findById(campaignId, { tracking: 1 }).lean<StoredCampaign>();
  return campaign ? sendTrackingOf(campaign) : null;
}

async function findSendState(filter: Record<string, unknown>): Promise<CampaignSendState[]> {
  const campaigns = await CampaignModel.find(filter, SEND_STATE).lean<StoredCampaign[]>();
  return campaigns.map(sendStateOf);
}

function roundFilter(campaignId: string, round: number) {
  return { campaign: new Types.ObjectId(campaignId), round };
}

/** Each batch's answered positions and their states, in one read of the round's outcomes. */
async function outcomeStatesOf(
  campaignId: string,
  round: number,
): Promise<Map<number, Map<number, LedgerState>>> {
  const states = new Map<number, Map<number, LedgerState>>();
  const cursor = outcomeDocuments().find(roundFilter(campaignId, round), {
    projection: { seq: 1, 'outcomes.position': 1, 'outcomes.state': 1 },
  });
  for await (const { seq, outcomes } of cursor) {
    states.set(seq, new Map(outcomes.map(({ position, state }) => [position, state])));
  }
  return states;
}

/** The round's batches, each roster with its recipients' states. */
async function* roundBatches(campaignId: string, round: number): AsyncGenerator<LedgerBatch> {
  const answered = await outcomeStatesOf(campaignId, round);
  const cursor = rosters()
    .find(roundFilter(campaignId, round), { projection: { seq: 1, recipients: 1 } })
    .batchSize(100);
  for await (const { seq, recipients } of cursor) {
    const states = answered.get(seq);
    yield {
      seq,
      recipients,
      states: recipients.map((_, position) => states?.get(position) ?? 'pending'),
    };
  }
}

async function* failedRecipients(
  campaignId: string,
  round: number,
): AsyncGenerator<CampaignRecipient> {
  const excluded = await excludedKeys();
  const withFailures = outcomeDocuments().find(
    { ...roundFilter(campaignId, round), 'outcomes.state': 'failed' },
    { projection: { outcomes: 1 } },
  );
  for await (const { _id, outcomes } of withFailures) {
    // The snapshot to personalise with is the roster's: one read by `_id` per batch with failures.
    const roster = await rosters().findOne({ _id }, { projection: { recipients: 1 } });
    for (const { position, state } of outcomes) {
      // Stryker disable next-line OptionalChaining: a batch's roster is written before any of its outcomes
      const recipient = roster?.recipients[position];
      if (state === 'failed' && recipient && !excluded.has(recipient.key)) yield recipient;
    }
  }
}

/** A bulk insert in which rosters already there (a dispatch run again) are skipped. */
async function insertRosters(documents: RosterDocument[]): Promise<void> {
  await insertUnlessPresent(rosters(), documents);
}

/**
 * A batch run's outcomes: inserted with the first run, the cheap write on the
 * embedded store. A batch sent again (after a passing refusal, or replayed
 * after a crash) adds the positions not yet there; an outcome already there
 * stays, as Redis keeps each recipient's first.
 */
async function recordOutcomes(
  campaignId: string,
  round: number,
  seq: number,
  outcomes: readonly PositionedOutcome[],
): Promise<void> {
  if (outcomes.length === 0) return;
  const at = new Date();
  const lines: OutcomeLine[] = outcomes.map(({ position, email, outcome }) => ({
    position,
    email,
    state: outcome.state,
    ...(outcome.state === 'failed' ? { reason: outcome.reason } : {}),
    attempts: outcome.attempts,
    at,
  }));
  const _id = campaignBatchId(campaignId, round, seq);
  try {
    await outcomeDocuments().insertOne({
      _id,
      ...roundFilter(campaignId, round),
      seq,
      outcomes: lines,
    });
    return;
  } catch (error) {
    if (!isDuplicateKeyError(error)) throw error;
  }
  const existing = await outcomeDocuments().findOne({ _id }, { projection: { outcomes: 1 } });
  // Stryker disable next-line OptionalChaining: the insert was refused because the document is there
  const known = new Set(existing?.outcomes.map(({ position }) => position));
  const added = lines.filter(({ position }) => !known.has(position));
  if (added.length > 0) {
    await outcomeDocuments().updateOne({ _id }, { $push: { outcomes: { $each: added } } });
  }
}

/** The campaign engine's store, over the campaigns module's models. */
export const mongoCampaignStore: CampaignStore = {
  testRecipientRefusal,

  // Read once per batch: through the driver, as the document is stored (nothing to cast).
  async sendState(campaignId) {
    if (!isValidObjectId(campaignId)) return null;
    const campaign = await CampaignModel.collection.findOne<StoredCampaign>(
      { _id: new Types.ObjectId(campaignId) },
      { projection: SEND_STATE },
    );
    return campaign ? sendStateOf(campaign) : null;
  },

  async mail(campaignId) {
    const campaign = await CampaignModel.findById(campaignId, {
      subject: 1,
      content: 1,
      defaultLocale: 1,
      translations: 1,
      placeholderFallbacks: 1,
      templateId: 1,
      queuedAt: 1,
      fromAddress: 1,
      replyTo: 1,
      tracking: 1,
    }).lean<StoredCampaign>();
    if (!campaign) return null;
    const defaultLocale = (campaign.defaultLocale ?? 'en') as Locale;
    const languages: CampaignLanguages = {
      [defaultLocale]: { subject: campaign.subject, content: campaign.content },
    };
    for (const { locale, subject, content } of campaign.translations ?? []) {
      languages[locale as Locale] = { subject, content };
    }
    // A template in use cannot be deleted; should one be missing all the same, the default serves.
    const template = campaign.templateId
      ? ((await CampaignTemplateModel.findById(campaign.templateId).lean()) ?? DEFAULT_TEMPLATE)
      : DEFAULT_TEMPLATE;
    // Read at each send, resume and resend: a save reaches the next one without a restart.
    const {
      from,
      replyTo,
      languages: texts,
      postalAddress,
    } = campaignSenderOf(await readAgencySettings(), campaign);
    return {
      defaultLocale,
      agency: { languages: texts, postalAddress },
      sender: { from, replyTo },
      languages,
      placeholderFallbacks: campaign.placeholderFallbacks ?? null,
      template: {
        header: template.header ?? '',
        footer: template.footer ?? '',
        layout: template.layout,
        brandColor: template.brandColor,
        backgroundColor: template.backgroundColor,
        textColor: template.textColor,
      },
      queuedAt: campaign.queuedAt ?? null,
      tracking: sendTrackingOf(campaign),
    };
  },

  startTracking,

  // startedAt is the first start only: a resume keeps it.
  async beginSending(campaignId) {
    const current = await CampaignModel.findById(campaignId, {
      ...SEND_STATE,
      startedAt: 1,
    }).lean<StoredCampaign>();
    if (!current || current.status !== 'queued') return current ? sendStateOf(current) : null;
    const started = await CampaignModel.findOneAndUpdate(
      { _id: campaignId, status: 'queued' },
      { $set: { status: 'sending', ...(current.startedAt ? {} : { startedAt: new Date() }) } },
      // The embedded store's findAndModify takes no projection.
      { returnDocument: 'after' },
    ).lean<StoredCampaign>();
    return started ? sendStateOf(started) : mongoCampaignStore.sendState(campaignId);
  },

  audience: (target, met) => audienceRecipients(target, undefined, met),
  countAudience: (target, met) => countAudience(target, undefined, met),
  failedRecipients,

  roundBatches,

  async addBatches(campaignId, round, batches) {
    const createdAt = new Date();
    await insertRosters(
      batches.map(({ seq, recipients }) => ({
        _id: campaignBatchId(campaignId, round, seq),
        ...roundFilter(campaignId, round),
        seq,
        recipients: recipients.map(({ key, email, firstName, lastName, locale, source }) => ({
          key,
          email,
          firstName,
          lastName: lastName ?? '',
          locale,
          ...(source === undefined ? {} : { source }),
        })),
        createdAt,
        // This round's mails carry keyed identities: a report naming one of
        // its mails with an unkeyed (SHA-1) digest is refused.
        identity: KEYED_IDENTITIES,
      })),
    );
  },

  recordOutcomes,

  // A count that comes late (a dispatch still running after a newer one ended) leaves the exact total.
  async recordTotal(campaignId, total) {
    await CampaignModel.updateOne(
      { _id: campaignId, round: 1, dispatchedRound: trusted({ $ne: 1 }) },
      { $set: { total } },
    );
  },

  // The dispatch's own count: whoever is in the round's batches, the exact total.
  async markDispatched(campaignId, round, total, mailsPerSource) {
    const firstRound = round === 1 ? { total, mailsPerSource } : {};
    await CampaignModel.updateOne(
      { _id: campaignId, round },
      { $set: { dispatchedRound: round, ...firstRound } },
    );
  },

  /**
   * Copies the round's counters (kept atomically in Redis) into the campaign.
   * Conditional on the version, so folds arriving out of order leave the
   * newest counts.
   */
  async foldCounters(campaign, counts: RoundCounts) {
    await CampaignModel.updateOne(
      {
        _id: campaign.id,
        round: campaign.round,
        countersVersion: trusted({ $lt: counts.version }),
      },
      {
        $set: {
          sentCount: campaign.roundBaseSent + counts.sent,
          failedCount: counts.failed,
          countersVersion: counts.version,
        },
      },
    );
  },

  /**
   * A paused campaign with nothing left to send is done too; a cancelled one
   * stays cancelled.
   */
  async finishRound(campaign, counts) {
    const sentCount = campaign.roundBaseSent + counts.sent;
    const status: CampaignStatus = sentCount === 0 && counts.failed > 0 ? 'failed' : 'sent';
    const finished = await CampaignModel.findOneAndUpdate(
      {
        _id: campaign.id,
        round: campaign.round,
        status: trusted({ $in: UNFINISHED_STATUSES }),
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
  },

  // In the campaign's write turn (the engine holds its lock): two workers cannot both start it.
  async startScheduled(campaignId, scheduledAt) {
    const { modifiedCount } = await CampaignModel.updateOne(
      { _id: campaignId, status: 'scheduled', scheduledAt },
      { $set: { status: 'queued', queuedAt: new Date() } },
    );
    return modifiedCount === 1;
  },

  async dueSchedules(now) {
    // The filter matches only campaigns with a time: each one read has it.
    const due = await CampaignModel.find(
      { status: 'scheduled', scheduledAt: trusted({ $lte: now }) },
      // Stryker disable next-line ObjectLiteral: a few small documents once a minute; the answer is the same
      { scheduledAt: 1 },
    ).lean<{ _id: Types.ObjectId; scheduledAt: Date }[]>();
    return due.map(({ _id, scheduledAt }) => ({ id: String(_id), scheduledAt }));
  },

  stuckQueued: (olderThanMs) =>
    findSendState({
      status: 'queued',
      queuedAt: trusted({ $lt: new Date(Date.now() - olderThanMs) }),
    }),

  stalledSending: (olderThanMs) =>
    findSendState({
      status: 'sending',
      updatedAt: trusted({ $lt: new Date(Date.now() - olderThanMs) }),
    }),
};
