import { Schema, model, type InferSchemaType } from 'mongoose';
import {
  CAMPAIGN_STATUSES,
  ENQUIRY_LAWFUL_BASES,
  LOCALES,
  RECIPIENT_TYPES,
  TRACKING_MODES,
} from '@agency/contracts';

/** The campaign in one more language than its default. */
const translationSchema = new Schema(
  {
    locale: { type: String, required: true, enum: LOCALES },
    subject: { type: String, required: true },
    // Sanitised HTML, as the default language's content.
    content: { type: String, required: true },
  },
  { _id: false },
);

/** Days (0 = Sunday) and hours on the agency's clock in which the campaign may be sent. */
const sendingWindowSchema = new Schema(
  {
    days: { type: [Number], required: true },
    start: { type: String, required: true },
    end: { type: String, required: true },
  },
  { _id: false },
);

const trackingSchema = new Schema(
  {
    opens: { type: Boolean, required: true, default: true },
    clicks: { type: Boolean, required: true, default: true },
    mode: { type: String, enum: TRACKING_MODES, default: null },
    // 32 random bytes, base64url; null before the send and once destroyed.
    key: { type: String, default: null },
    keyDestroyedAt: { type: Date, default: null },
    links: { type: [String], default: [] },
  },
  { _id: false },
);

const campaignSchema = new Schema(
  {
    name: { type: String, required: true },
    subject: { type: String, required: true },
    // Sanitised HTML: what is stored is what may be mailed.
    content: { type: String, required: true },
    recipientType: { type: String, required: true, enum: RECIPIENT_TYPES, default: 'all' },
    // The mailing lists a campaign of type `lists` goes to.
    listIds: { type: [Schema.Types.ObjectId], default: [] },
    // The segments a campaign of type `segments` goes to, in the editor's order.
    segmentIds: { type: [Schema.Types.ObjectId], default: [] },
    // Set by an admin for this campaign alone (a copy starts without it): the
    // basis on which enquiry contacts who did not consent are mailed too.
    enquiryLawfulBasis: { type: String, enum: [...ENQUIRY_LAWFUL_BASES, null], default: null },
    // `subject` and `content` are in this language; a recipient whose own is not written gets it.
    defaultLocale: { type: String, required: true, enum: LOCALES, default: 'en' },
    translations: { type: [translationSchema], default: [] },
    // What a placeholder without its own fallback says per language; a
    // language without one (a campaign saved before there were) says the shipped default.
    placeholderFallbacks: {
      type: new Schema(Object.fromEntries(LOCALES.map((locale) => [locale, { type: String }])), {
        _id: false,
      }),
      default: null,
    },
    // The media library's images its content shows (every language), kept on
    // each save so "where is this image used" is one indexed query.
    mediaIds: { type: [String], default: [] },
    // None: the built-in default template.
    templateId: { type: Schema.Types.ObjectId, default: null },
    // While `scheduled`: when the campaign is queued.
    scheduledAt: { type: Date, default: null },
    sendingWindow: { type: sendingWindowSchema, default: null },
    // Mails per minute for this campaign alone; none: only the global cap.
    ratePerMinute: { type: Number, default: null },
    // One of the From addresses the agency's settings allow; none: the agency's default.
    fromAddress: { type: String, default: null },
    // Where replies go; none: the agency's default Reply-To.
    replyTo: { type: String, default: null },
    // Open and click tracking: the editor's switches, then, from the send's
    // start, the mode, the campaign's tracking key (recipient keys are made
    // under it) and the link table (a tracking link's index is its position).
    tracking: { type: trackingSchema, default: () => ({}) },
    // Shown on the public archive once `sent`; the staff may take it off at any time.
    publishToArchive: { type: Boolean, required: true, default: false },
    status: { type: String, required: true, enum: CAMPAIGN_STATUSES, default: 'draft' },
    // Counters of the send, kept on this small document so progress is one read.
    total: { type: Number, required: true, default: 0 },
    sentCount: { type: Number, required: true, default: 0 },
    failedCount: { type: Number, required: true, default: 0 },
    // The first round's mails per source of its audience (`s0`, `s1`…,
    // `unknown`: campaignSourceKeyOf), counted by the dispatch from the
    // round's whole ledger and written with its end: the report per list reads it.
    mailsPerSource: { type: Schema.Types.Mixed, default: null },
    // Recipients who unsubscribed through this campaign's mail, each once.
    unsubscribeCount: { type: Number, required: true, default: 0 },
    createdBy: { type: Schema.Types.ObjectId },
    queuedAt: { type: Date },
    startedAt: { type: Date },
    finishedAt: { type: Date },
    // Which send this is: 1, then one more per "resend to the failed".
    round: { type: Number, required: true, default: 1 },
    // Which pass over the round: a resume after a pause is a new pass (new job ids).
    pass: { type: Number, required: true, default: 1 },
    // The last round whose whole audience is in the ledger: a dispatch run
    // again after that (a resume, a recovery) only queues what is still owed.
    dispatchedRound: { type: Number, required: true, default: 0 },
    // Sent in the rounds before this one: sentCount = this + the round's own sent.
    roundBaseSent: { type: Number, required: true, default: 0 },
    // The version of the round's counters last folded in from Redis: an older
    // fold arriving late never overwrites a newer one.
    countersVersion: { type: Number, required: true, default: 0 },
    pausedAt: { type: Date },
    cancelledAt: { type: Date },
  },
  { timestamps: true },
);

campaignSchema.index({ createdAt: -1 });
campaignSchema.index({ status: 1, createdAt: -1 });
// The recovery's look for scheduled campaigns whose time has come.
campaignSchema.index({ status: 1, scheduledAt: 1 });
// The public archive: published sent campaigns, newest send first.
campaignSchema.index({ publishToArchive: 1, status: 1, finishedAt: -1 });
// "Is this template used?" before it is deleted.
campaignSchema.index({ templateId: 1 });
campaignSchema.index({ mediaIds: 1 });

export type Campaign = InferSchemaType<typeof campaignSchema>;
export const CampaignModel = model('Campaign', campaignSchema);
