import { Schema, model, type InferSchemaType } from 'mongoose';
import { LEDGER_STATES } from '@agency/contracts';

/** One recipient of a batch: the snapshot the mail is personalised with. */
const rosterEntrySchema = new Schema(
  {
    key: { type: String, required: true },
    email: { type: String, required: true },
    firstName: { type: String, default: '' },
    lastName: { type: String, default: '' },
    locale: { type: String, default: 'en' },
    // Where the audience walk found them (CampaignRecipient.source); absent
    // on rosters written before sources were kept.
    source: { type: Number },
  },
  { _id: false },
);

/**
 * The campaign ledger is two documents per batch of a round, each written
 * once: the batch's roster when the dispatch queues it, and its outcomes
 * when it is sent. The embedded store pays about 4 ms of CPU for any update
 * (it rewrites the document) against about 1 ms for an insert, and a batch
 * of 50 recipients would otherwise cost 50 documents: so a batch writes one
 * document per side, and is updated only when it is sent again after a
 * passing refusal or a crash.
 */
const campaignBatchSchema = new Schema(
  {
    _id: { type: String, required: true },
    campaign: { type: Schema.Types.ObjectId, required: true },
    round: { type: Number, required: true },
    seq: { type: Number, required: true },
    recipients: { type: [rosterEntrySchema], required: true },
    createdAt: { type: Date, required: true },
    // 'keyed' on every roster written since identities carry keyed digests;
    // absent on a round started before, whose mails carry SHA-1 ones.
    identity: { type: String },
  },
  { versionKey: false },
);
campaignBatchSchema.index({ campaign: 1, round: 1, seq: 1 });
// A person's page lists the mails sent to one address: its batches, newest first.
campaignBatchSchema.index({ 'recipients.key': 1, createdAt: -1 });

/** One recipient's outcome: by its position in the batch's roster. */
const outcomeEntrySchema = new Schema(
  {
    position: { type: Number, required: true },
    email: { type: String, required: true },
    state: { type: String, required: true, enum: LEDGER_STATES },
    // The SMTP server's reply when it refused the mail.
    reason: { type: String },
    // Delivery attempts in this round: more than one means a retry after a 4xx
    // or a send in flight when a worker died (a possible duplicate).
    attempts: { type: Number, required: true },
    at: { type: Date, required: true },
  },
  { _id: false },
);

/** A batch's outcomes, under the batch's `_id`: every recipient answered so far, each once. */
const campaignOutcomeSchema = new Schema(
  {
    _id: { type: String, required: true },
    campaign: { type: Schema.Types.ObjectId, required: true },
    round: { type: Number, required: true },
    seq: { type: Number, required: true },
    outcomes: { type: [outcomeEntrySchema], required: true },
  },
  { versionKey: false },
);
campaignOutcomeSchema.index({ campaign: 1, round: 1, seq: 1 });

export type CampaignBatch = InferSchemaType<typeof campaignBatchSchema>;
export type RosterEntry = InferSchemaType<typeof rosterEntrySchema>;
export type OutcomeEntry = InferSchemaType<typeof outcomeEntrySchema>;
export const CampaignBatchModel = model('CampaignBatch', campaignBatchSchema);
export const CampaignOutcomeModel = model('CampaignOutcome', campaignOutcomeSchema);

/** A batch's ledger documents' `_id`: deterministic, so writing one again after a crash is a no-op. */
export function campaignBatchId(campaignId: string, round: number, seq: number): string {
  return `${campaignId}:${round}:${seq}`;
}
