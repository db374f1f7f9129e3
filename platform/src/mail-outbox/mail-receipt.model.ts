import { Schema, model, type InferSchemaType } from 'mongoose';

/** The mails that get receipts, as named in a receipt's `mail` field. */
export const RECEIPT_MAILS = [
  'contact-notification',
  'contact-acknowledgement',
  'newsletter-confirmation',
] as const;
export type ReceiptMail = (typeof RECEIPT_MAILS)[number];

export const RECEIPT_OUTCOMES = ['sent', 'failed'] as const;
export type ReceiptOutcome = (typeof RECEIPT_OUTCOMES)[number];

/**
 * How one mail ended: sent, or failed with the server's reply. Appended once
 * per mail under an `_id` derived from the mail, never updated: the first
 * outcome recorded stands, and a replayed job finds it by `_id` and sends
 * nothing. Enquiries and subscribers are never written to by the worker.
 */
const mailReceiptSchema = new Schema(
  {
    _id: { type: String, required: true },
    mail: { type: String, required: true, enum: RECEIPT_MAILS },
    /** The enquiry's or the subscriber's id. */
    ref: { type: String, required: true },
    outcome: { type: String, required: true, enum: RECEIPT_OUTCOMES },
    at: { type: Date, required: true },
    error: { type: String },
  },
  { versionKey: false, collection: 'mail_receipts' },
);

// Staff filter enquiries whose mail failed: few receipts, found without reading the others.
mailReceiptSchema.index({ mail: 1, outcome: 1 });

export type MailReceipt = InferSchemaType<typeof mailReceiptSchema>;
export const MailReceiptModel = model('MailReceipt', mailReceiptSchema);
