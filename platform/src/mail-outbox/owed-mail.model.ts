import { Schema, model, type InferSchemaType } from 'mongoose';
import { QUEUE_NAMES } from '@agency/contracts';

/** The mail jobs an outbox entry stands for. */
export const OWED_MAIL_JOBS = [
  QUEUE_NAMES.contactMail,
  QUEUE_NAMES.newsletterConfirmation,
] as const;
export type OwedMailJob = (typeof OWED_MAIL_JOBS)[number];

/**
 * One mail job owed and not yet settled: written with the enquiry or the
 * subscription request, deleted once every mail of the job has a receipt.
 * The collection holds only what is in flight, so it stays small, and the
 * outbox relay reads it instead of the collections that grow with traffic.
 */
const owedMailSchema = new Schema(
  {
    // Derived from the job (`contact:<id>`...), so writing it twice is a duplicate, not a second job.
    _id: { type: String, required: true },
    job: { type: String, required: true, enum: OWED_MAIL_JOBS },
    contactId: { type: String },
    subscriberId: { type: String },
    request: { type: Number },
    /**
     * What the job's mails are written from (an enquiry's fields), so the
     * worker reads this small collection and not the one that grows with
     * traffic. Gone with the entry once the mails are settled.
     */
    payload: { type: Schema.Types.Mixed },
    createdAt: { type: Date, required: true },
  },
  // No updatedAt and no secondary index: entries are inserted and deleted, never updated.
  { versionKey: false, collection: 'owed_mails' },
);

export type OwedMail = InferSchemaType<typeof owedMailSchema>;
export const OwedMailModel = model('OwedMail', owedMailSchema);
