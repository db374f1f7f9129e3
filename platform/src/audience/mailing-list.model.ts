import { Schema, model, type InferSchemaType } from 'mongoose';

const mailingListSchema = new Schema(
  {
    name: { type: String, required: true },
    description: { type: String },
    // Kept on write (an import adds what it created once it ends, staff add
    // or remove one at a time): counting a list's members means scanning
    // every member of every list on the embedded store.
    memberCount: { type: Number, required: true, default: 0 },
    createdBy: { type: Schema.Types.ObjectId },
  },
  { timestamps: true },
);

mailingListSchema.index({ name: 1 });
mailingListSchema.index({ createdAt: -1 });

export type MailingList = InferSchemaType<typeof mailingListSchema>;
export const MailingListModel = model('MailingList', mailingListSchema);
