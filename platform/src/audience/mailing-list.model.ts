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

/** A list's name and description in one language, as visitors read them. */
const localizedTextSchema = new Schema(
  { name: { type: String }, description: { type: String } },
  { _id: false },
);

const mailingListSchema = new Schema(
  {
    name: { type: String, required: true },
    description: { type: String },
    /** Offered on the newsletter sign-up and the preference page. */
    public: { type: Boolean, required: true, default: false },
    // Kept when a list is made private again, so that making it public
    // later does not mean typing its names anew.
    localized: {
      en: { type: localizedTextSchema, default: undefined },
      fr: { type: localizedTextSchema, default: undefined },
      ar: { type: localizedTextSchema, default: undefined },
    },
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
// The sign-up form and the preference page ask for the public lists on every load.
mailingListSchema.index({ public: 1, name: 1 });

export type MailingList = InferSchemaType<typeof mailingListSchema>;
export const MailingListModel = model('MailingList', mailingListSchema);
