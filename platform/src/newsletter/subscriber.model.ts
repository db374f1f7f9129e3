import { Schema, model, type HydratedDocument, type InferSchemaType } from 'mongoose';
import {
  DEFAULT_LOCALE,
  LOCALES,
  NEWSLETTER_SOURCES,
  SUBSCRIBER_STATUSES,
} from '@agency/contracts';

/** How an address left: a link in a mail (one click or the page), or a spam complaint. */
export const UNSUBSCRIBE_METHODS = ['one-click', 'page', 'complaint'] as const;
export type UnsubscribeMethod = (typeof UNSUBSCRIBE_METHODS)[number];

/**
 * What the visitor agreed to, and how: the proof of consent a double opt-in
 * list must be able to show. Replaced by each new subscription request, then
 * completed by the confirmation click.
 */
const consentSchema = new Schema(
  {
    requestedAt: { type: Date, required: true },
    ip: { type: String },
    locale: { type: String, required: true, enum: LOCALES },
    source: { type: String, required: true, enum: NEWSLETTER_SOURCES },
    wordingVersion: { type: String, required: true },
    // The public lists chosen with this request: the confirmation click
    // joins them, so one mail confirms the subscription and every list.
    listIds: { type: [String], default: undefined },
    confirmedAt: { type: Date },
    confirmedIp: { type: String },
  },
  { _id: false },
);

const subscriberSchema = new Schema(
  {
    // Lower-cased and unique: one subscription per address, however it is typed.
    email: { type: String, required: true, unique: true, lowercase: true, trim: true },
    status: { type: String, required: true, enum: SUBSCRIBER_STATUSES, default: 'pending' },
    locale: { type: String, required: true, enum: LOCALES, default: DEFAULT_LOCALE },
    confirmedAt: { type: Date },
    unsubscribedAt: { type: Date },
    unsubscribeMethod: { type: String, enum: UNSUBSCRIBE_METHODS },
    consent: { type: consentSchema },
    // How many times the address asked to subscribe: each request owes its
    // own confirmation mail, so it is part of that mail's job id.
    confirmationRequests: { type: Number, required: true, default: 0 },
    // Each request's confirmation mail is owed in the mail outbox and its
    // outcome kept as a receipt (modules/mail-outbox): the worker never
    // writes here.
  },
  { timestamps: true },
);

subscriberSchema.index({ status: 1, createdAt: -1 });

export type Subscriber = InferSchemaType<typeof subscriberSchema>;
export type SubscriberDocument = HydratedDocument<Subscriber>;
export const SubscriberModel = model('Subscriber', subscriberSchema);
