import { Schema, model, type InferSchemaType, type HydratedDocument } from 'mongoose';
import { CONTACT_STATUSES, LOCALES, SERVICE_SLUGS, DEFAULT_LOCALE } from '@agency/contracts';

const contactSchema = new Schema(
  {
    firstName: { type: String, required: true },
    lastName: { type: String, required: true },
    email: { type: String, required: true },
    phone: { type: String },
    service: { type: String, required: true, enum: SERVICE_SLUGS },
    message: { type: String, required: true },
    locale: { type: String, required: true, enum: LOCALES, default: DEFAULT_LOCALE },
    status: { type: String, required: true, enum: CONTACT_STATUSES, default: 'new' },
    // Where the enquiry's two mails stand is not kept here: the mail outbox
    // (modules/mail-outbox) owes them and their receipts record how they
    // ended, so the worker never writes to this collection, which grows with
    // every enquiry (docs/architecture.md, "The mail outbox").
  },
  { timestamps: true },
);

contactSchema.index({ createdAt: -1 });
contactSchema.index({ status: 1, createdAt: -1 });

export type Contact = InferSchemaType<typeof contactSchema>;
export type ContactDocument = HydratedDocument<Contact>;
export const ContactModel = model('Contact', contactSchema);
