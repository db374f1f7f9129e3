import { Schema, model, type InferSchemaType } from 'mongoose';

/**
 * Set when the list's deletion is asked for, and kept until its job removed
 * the last member and then the list: a list with it takes no campaign, no
 * import and no new member, and the dashboard shows its progress.
 */
const deletionSchema = new Schema(
  {
    /** Members when the deletion was asked for: the progress bar's end. */
    total: { type: Number, required: true },
    /** Members the job has removed, saved after each chunk. */
    removed: { type: Number, required: true, default: 0 },
    startedAt: { type: Date, required: true },
  },
  { _id: false },
);

const mailingListSchema = new Schema(
  {
    name: { type: String, required: true },
    description: { type: String },
    // Kept on write (an import adds what it created once it ends, staff add
    // or remove one at a time): counting a list's members means scanning
    // every member of every list on the embedded store.
    memberCount: { type: Number, required: true, default: 0 },
    createdBy: { type: Schema.Types.ObjectId },
    deletion: { type: deletionSchema, default: undefined },
  },
  { timestamps: true },
);

mailingListSchema.index({ name: 1 });
mailingListSchema.index({ createdAt: -1 });

export type MailingList = InferSchemaType<typeof mailingListSchema>;
export const MailingListModel = model('MailingList', mailingListSchema);
