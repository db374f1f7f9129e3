import { Schema, model } from 'mongoose';
import { LOCALES, TRACKING_MODES } from '@agency/contracts';

const languageTextsSchema = new Schema(
  {
    agencyName: { type: String, required: true },
    header: { type: String, default: '' },
    footer: { type: String, default: '' },
  },
  { _id: false },
);

const senderSchema = new Schema(
  {
    name: { type: String, required: true },
    address: { type: String, required: true },
  },
  { _id: false },
);

/**
 * The agency's settings: one small document, replaced whole on each save,
 * so two admins saving at once leave one version or the other, never a mix.
 */
const agencySettingsSchema = new Schema(
  {
    _id: { type: String, required: true },
    languages: {
      en: { type: languageTextsSchema, required: true },
      fr: { type: languageTextsSchema, required: true },
      ar: { type: languageTextsSchema, required: true },
    },
    senders: { type: [senderSchema], default: [] },
    defaultFrom: { type: String, required: true },
    replyTo: { type: String, required: true },
    postalAddress: { type: String, default: '' },
    timeZone: { type: String, required: true },
    defaultLocale: { type: String, required: true, enum: LOCALES },
    // Open and click tracking; a document saved before it existed has none (the defaults).
    tracking: {
      type: new Schema(
        {
          opens: { type: Boolean, required: true },
          clicks: { type: Boolean, required: true },
          mode: { type: String, required: true, enum: TRACKING_MODES },
          keyRetentionDays: { type: Number, required: true },
        },
        { _id: false },
      ),
      default: null,
    },
    // The retention rules; a document saved before they existed has none (the defaults).
    retention: {
      type: new Schema(
        {
          enquiryMonths: { type: Number, default: null },
          activityMonths: { type: Number, required: true },
        },
        { _id: false },
      ),
      default: null,
    },
    updatedBy: { type: String },
  },
  { timestamps: true },
);

export const AgencySettingsModel = model('AgencySettings', agencySettingsSchema);
export const AGENCY_SETTINGS_ID = 'agency';
