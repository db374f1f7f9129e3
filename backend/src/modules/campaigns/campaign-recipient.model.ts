import { Schema, model, type InferSchemaType } from 'mongoose';
import { LEDGER_STATES } from '@agency/contracts';

/**
 * The campaign ledger: facts appended, never updated. The dispatch appends a
 * `pending` fact per recipient and round; each send appends one `sent` or
 * `failed` fact per recipient and round. The `_id` names the fact, so writing
 * it again after a crash is a duplicate-key no-op and a lookup is by `_id`
 * (the embedded store updates a document at the cost of a scan of its
 * collection; inserts in bulk are cheap).
 */
const campaignRecipientSchema = new Schema(
  {
    _id: { type: String, required: true },
    campaign: { type: Schema.Types.ObjectId, required: true },
    round: { type: Number, required: true },
    state: { type: String, required: true, enum: LEDGER_STATES },
    email: { type: String, required: true },
    // Only the pending fact carries what the mail is personalised with.
    firstName: { type: String },
    locale: { type: String },
    reason: { type: String },
    // Delivery attempts in this round: more than one means a retry after a 4xx
    // or a send in flight when a worker died (a possible duplicate).
    attempts: { type: Number },
    at: { type: Date, required: true },
  },
  { versionKey: false },
);
campaignRecipientSchema.index({ campaign: 1, state: 1, round: 1 });

export type CampaignRecipientFact = InferSchemaType<typeof campaignRecipientSchema>;
export const CampaignRecipientModel = model('CampaignRecipient', campaignRecipientSchema);

export function pendingFactId(campaignId: string, round: number, key: string): string {
  return `${campaignId}:${round}:pending:${key}`;
}

export function outcomeFactId(campaignId: string, round: number, key: string): string {
  return `${campaignId}:${round}:${key}`;
}
