import { Schema, model, type InferSchemaType } from 'mongoose';
import { SUPPRESSION_REASONS, SUPPRESSION_SOURCES } from '@agency/contracts';

/**
 * An address no campaign mails and no import takes in. The `_id` is the
 * normalised address: one entry per address, the first reason kept.
 */
const suppressionSchema = new Schema(
  {
    _id: { type: String, required: true },
    email: { type: String, required: true },
    reason: { type: String, required: true, enum: SUPPRESSION_REASONS },
    source: { type: String, required: true, enum: SUPPRESSION_SOURCES },
    at: { type: Date, required: true },
    campaign: { type: Schema.Types.ObjectId },
    detail: { type: String },
    byId: { type: Schema.Types.ObjectId },
    byName: { type: String },
  },
  { timestamps: true },
);

suppressionSchema.index({ at: -1 });

export type Suppression = InferSchemaType<typeof suppressionSchema>;
export const SuppressionModel = model('Suppression', suppressionSchema);
