import { Schema, model, type mongo, type Types } from 'mongoose';
import { LOCALES, type Locale } from '@agency/contracts';
import type { StoredTrackingEvent } from '../tracking/stored-event-verdicts';

/**
 * A campaign's results, kept on write: one document per campaign whose
 * `counters` the event writer moves with `$inc` (paths such as
 * `opens.people.unique`, `links.l2.scanners.total`, `timeline.h2026050410.opens`),
 * so the report is one read however many events there were. `marks` holds
 * the ids of the event batches whose `$inc` landed and whose recipients'
 * pending changes are not cleared yet: a retried batch finds its mark and
 * does not add again. Only the event writer writes it.
 */
const campaignResultsSchema = new Schema(
  {
    _id: { type: Schema.Types.ObjectId, required: true },
    counters: { type: Schema.Types.Mixed, default: () => ({}) },
    marks: { type: Schema.Types.Mixed, default: () => ({}) },
    // The first round's mails per language, kept once that round's roster is complete.
    mailsPerLanguage: { type: Schema.Types.Mixed, default: null },
  },
  { versionKey: false, minimize: false },
);

/** An event as the request judged it: the writer judges a recipient's events again from these. */
const storedEventSchema = new Schema(
  {
    id: { type: String, required: true },
    kind: { type: String, required: true, enum: ['open', 'click'] },
    linkIndex: { type: Number, default: null },
    trap: { type: Boolean, required: true },
    at: { type: String, required: true },
    sentAt: { type: String, required: true },
    verdict: { type: String, required: true, enum: ['person', 'machine', 'scanner'] },
    rule: { type: String, default: null },
  },
  { _id: false },
);

/** One counter and its value: counter paths hold dots, so they cannot be field names. */
const counterEntrySchema = new Schema(
  { path: { type: String, required: true }, value: { type: Number, required: true } },
  { _id: false },
);

/**
 * One recipient of a campaign: its events (as the requests judged them,
 * deduplicated by id, at most ACTIVITY_EVENT_LIMIT), what it adds to the
 * campaign's counters (`contribution`) and, between the write of a change
 * and the batch's `$inc`, the change still to apply with the batch's id
 * (`pending`). `email` only in individual mode.
 */
const campaignActivitySchema = new Schema(
  {
    _id: { type: String, required: true },
    campaign: { type: Schema.Types.ObjectId, required: true },
    recipientKey: { type: String, required: true },
    email: { type: String, default: null },
    locale: { type: String, required: true, enum: LOCALES },
    // The recipient's source in the campaign (its tokens say it); null when unknown.
    source: { type: Number, default: null },
    events: { type: [storedEventSchema], default: [] },
    // As the events judged together say, for the individual results' filters.
    opened: { type: Boolean, default: false },
    clicked: { type: Boolean, default: false },
    contribution: { type: [counterEntrySchema], default: [] },
    pending: {
      type: new Schema(
        { batch: { type: String, required: true }, delta: { type: [counterEntrySchema] } },
        { _id: false },
      ),
      default: null,
    },
  },
  { versionKey: false },
);
campaignActivitySchema.index({ campaign: 1, email: 1 });
campaignActivitySchema.index({ campaign: 1, opened: 1, email: 1 });
campaignActivitySchema.index({ campaign: 1, clicked: 1, email: 1 });
campaignActivitySchema.index({ email: 1 });

export const CampaignResultsModel = model('CampaignResults', campaignResultsSchema);
export const CampaignActivityModel = model('CampaignActivity', campaignActivitySchema);

export interface CounterEntry {
  path: string;
  value: number;
}

/** A change of a recipient's contribution, stored until the counters have it. */
export interface PendingChange {
  /** The event batch whose `$inc` carries it. */
  batch: string;
  delta: CounterEntry[];
}

/** An activity document as the writer and the queries read it (plain, not a mongoose document). */
export interface CampaignActivity {
  _id: string;
  campaign: Types.ObjectId;
  recipientKey: string;
  email: string | null;
  locale: Locale;
  /** Absent on a document written before sources were kept. */
  source?: number | null;
  events: StoredTrackingEvent[];
  /** A person's open was seen or implied. */
  opened: boolean;
  /** A person clicked. */
  clicked: boolean;
  contribution: CounterEntry[];
  pending: PendingChange | null;
}

/** Nested counters: the leaves are numbers. */
export interface CounterTree {
  [segment: string]: number | CounterTree;
}

export interface CampaignResults {
  _id: Types.ObjectId;
  counters: CounterTree;
  marks: Record<string, number>;
  mailsPerLanguage: Record<string, number> | null;
}

/*
 * The writer's updates go to the driver's collections: their paths are made
 * at run time (a counter, a batch's mark), which mongoose's casting and its
 * filter sanitising are not for.
 */
export const activityCollection = (): mongo.Collection<CampaignActivity> =>
  CampaignActivityModel.collection as unknown as mongo.Collection<CampaignActivity>;
export const resultsCollection = (): mongo.Collection<CampaignResults> =>
  CampaignResultsModel.collection as unknown as mongo.Collection<CampaignResults>;

/** A recipient's activity document's `_id`. */
export const campaignActivityId = (campaignId: string, recipientKey: string): string =>
  `${campaignId}:${recipientKey}`;
