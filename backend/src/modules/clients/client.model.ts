import { Schema, model, type InferSchemaType } from 'mongoose';
import { CLIENT_INDUSTRIES, CLIENT_STATUSES } from '@agency/contracts';

const clientSchema = new Schema(
  {
    companyName: { type: String, required: true },
    contactPerson: { type: String, required: true },
    email: { type: String, required: true },
    phone: { type: String },
    website: { type: String },
    monthlyBudget: { type: Number, min: 0 },
    industry: { type: String, enum: CLIENT_INDUSTRIES },
    status: { type: String, required: true, enum: CLIENT_STATUSES, default: 'active' },
    notes: { type: String },
  },
  { timestamps: true },
);

clientSchema.index({ createdAt: -1 });
clientSchema.index({ status: 1, createdAt: -1 });
clientSchema.index({ companyName: 1 });

export type Client = InferSchemaType<typeof clientSchema>;
export const ClientModel = model('Client', clientSchema);
