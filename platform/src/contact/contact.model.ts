import { Schema, model, type InferSchemaType, type HydratedDocument } from 'mongoose';
import {
  CONSENT_SOURCES,
  CONTACT_STATUSES,
  LOCALES,
  SERVICE_SLUGS,
  DEFAULT_LOCALE,
} from '@agency/contracts';

/**
 * The visitor ticked "send me news": what they agreed to and how, in the
 * shape of a subscriber's consent (newsletter/subscriber.model.ts), so one
 * reading serves both. Absent: the enquiry gave no consent, and campaigns to
 * enquiry contacts leave it out unless one names a lawful basis.
 */
const enquiryConsentSchema = new Schema(
  {
    requestedAt: { type: Date, required: true },
    ip: { type: String },
    locale: { type: String, required: true, enum: LOCALES },
    source: { type: String, required: true, enum: CONSENT_SOURCES },
    wordingVersion: { type: String, required: true },
  },
  { _id: false },
);

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
    consent: { type: enquiryConsentSchema },
    // Written with the enquiry (contact-search.ts), never from a request: the
    // name and address as searched and sorted, lower-cased and without
    // accents, so an index serves the prefix search and the name order.
    searchTerms: { type: [String], default: undefined },
    lastNameKey: { type: String },
    // Set by the retention rule, which emptied the personal fields (contact-retention.ts).
    anonymisedAt: { type: Date },
    // Where the enquiry's two mails stand is not kept here: the mail outbox
    // (modules/mail-outbox) owes them and their receipts record how they
    // ended, so the worker never writes to this collection, which grows with
    // every enquiry (docs/architecture.md, "The mail outbox").
  },
  { timestamps: true },
);

// One index per order the list offers, the id breaking ties as the keyset
// pages do, and one per filter in the default order.
contactSchema.index({ createdAt: -1, _id: -1 });
contactSchema.index({ lastNameKey: 1, _id: 1 });
contactSchema.index({ email: 1, _id: 1 });
contactSchema.index({ status: 1, _id: 1 });
contactSchema.index({ status: 1, createdAt: -1, _id: -1 });
contactSchema.index({ service: 1, createdAt: -1, _id: -1 });
contactSchema.index({ searchTerms: 1 });

export type Contact = InferSchemaType<typeof contactSchema>;
export type ContactDocument = HydratedDocument<Contact>;
export const ContactModel = model('Contact', contactSchema);
