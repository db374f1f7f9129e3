import { Schema, model, type InferSchemaType } from 'mongoose';
import { LEAD_SOURCES, LEAD_STATUSES } from '@agency/contracts';

const leadSchema = new Schema(
  {
    name: { type: String, required: true },
    email: { type: String },
    phone: { type: String },
    company: { type: String },
    source: { type: String, required: true, enum: LEAD_SOURCES, default: 'manual' },
    status: { type: String, required: true, enum: LEAD_STATUSES, default: 'new' },
    estimatedValue: { type: Number, min: 0 },
    notes: { type: String },
    assigneeId: { type: Schema.Types.ObjectId },
    // The enquiry this lead was converted from: set on conversion only.
    contactId: { type: Schema.Types.ObjectId },
  },
  { timestamps: true },
);

leadSchema.index({ createdAt: -1 });
leadSchema.index({ status: 1, createdAt: -1 });
leadSchema.index({ contactId: 1 });
leadSchema.index({ assigneeId: 1 });

export type Lead = InferSchemaType<typeof leadSchema>;
export const LeadModel = model('Lead', leadSchema);
