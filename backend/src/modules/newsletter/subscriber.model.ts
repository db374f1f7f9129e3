import { Schema, model, type HydratedDocument, type InferSchemaType } from 'mongoose';
import { DEFAULT_LOCALE, LOCALES, SUBSCRIBER_STATUSES } from '@agency/contracts';

const subscriberSchema = new Schema(
  {
    // Lower-cased and unique: one subscription per address, however it is typed.
    email: { type: String, required: true, unique: true, lowercase: true, trim: true },
    status: { type: String, required: true, enum: SUBSCRIBER_STATUSES, default: 'pending' },
    locale: { type: String, required: true, enum: LOCALES, default: DEFAULT_LOCALE },
    confirmedAt: { type: Date },
    unsubscribedAt: { type: Date },
  },
  { timestamps: true },
);

subscriberSchema.index({ status: 1, createdAt: -1 });

export type Subscriber = InferSchemaType<typeof subscriberSchema>;
export type SubscriberDocument = HydratedDocument<Subscriber>;
export const SubscriberModel = model('Subscriber', subscriberSchema);
