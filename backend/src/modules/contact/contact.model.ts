import { Schema, model, type InferSchemaType, type HydratedDocument } from 'mongoose';
import {
  CONTACT_STATUSES,
  LOCALES,
  MAIL_STATES,
  SERVICE_SLUGS,
  DEFAULT_LOCALE,
} from '@agency/contracts';

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
    // The outbox state of the agency's notification mail, kept in the same
    // document so storing the enquiry and recording "mail owed" is one write.
    mailState: { type: String, required: true, enum: MAIL_STATES, default: 'pending' },
    mailSentAt: { type: Date },
    mailError: { type: String },
    // The same outbox state for the acknowledgement mailed to the visitor.
    acknowledgementState: { type: String, required: true, enum: MAIL_STATES, default: 'pending' },
    acknowledgementSentAt: { type: Date },
    acknowledgementError: { type: String },
  },
  { timestamps: true },
);

contactSchema.index({ createdAt: -1 });
contactSchema.index({ status: 1, createdAt: -1 });
contactSchema.index({ mailState: 1, updatedAt: 1 });
contactSchema.index({ acknowledgementState: 1, updatedAt: 1 });

export type Contact = InferSchemaType<typeof contactSchema>;
export type ContactDocument = HydratedDocument<Contact>;
export const ContactModel = model('Contact', contactSchema);
