import { Schema, model, type HydratedDocument, type InferSchemaType } from 'mongoose';
import { DEFAULT_LOCALE, LOCALES } from '@agency/contracts';

/**
 * One "forgot password" request. The API stores every request alike,
 * whatever the address; the worker fills in the user and the token's hash
 * only for an address that belongs to a staff member, and mails the link.
 * The token itself is never stored: only its SHA-256, which is enough for
 * 256 random bits.
 */
const passwordResetSchema = new Schema({
  email: { type: String, required: true, lowercase: true, trim: true },
  locale: { type: String, required: true, enum: LOCALES, default: DEFAULT_LOCALE },
  ip: { type: String, required: true },
  requestedAt: { type: Date, required: true },
  userId: { type: String, default: null },
  tokenHash: { type: String, default: null },
  expiresAt: { type: Date, default: null },
  usedAt: { type: Date, default: null },
});

passwordResetSchema.index({ tokenHash: 1 });
passwordResetSchema.index({ userId: 1 });

export type PasswordReset = InferSchemaType<typeof passwordResetSchema>;
export type PasswordResetDocument = HydratedDocument<PasswordReset>;
export const PasswordResetModel = model('PasswordReset', passwordResetSchema, 'passwordresets');
