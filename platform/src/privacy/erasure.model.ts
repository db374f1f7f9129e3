import { Schema, model, type InferSchemaType } from 'mongoose';
import { ERASURE_STATES } from '@agency/contracts';

/**
 * One erased address, under its keyed digest (erasure-key.ts): the erasure's
 * progress while it runs, and afterwards the entry that keeps the address
 * out of imports and staff additions. It holds no address.
 */
const erasureSchema = new Schema(
  {
    _id: { type: String, required: true },
    state: { type: String, required: true, enum: ERASURE_STATES },
    requestedAt: { type: Date, required: true },
    startedAt: { type: Date },
    finishedAt: { type: Date },
    // The steps finished (person-erasure.ts): a run taken over after a crash skips them.
    steps: { type: [String], default: [] },
    // The language of the confirmation mail, read before the records it comes from are erased.
    locale: { type: String },
  },
  { versionKey: false, collection: 'erasures' },
);

export type Erasure = InferSchemaType<typeof erasureSchema>;
export const ErasureModel = model('Erasure', erasureSchema);
