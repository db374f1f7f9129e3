import { Schema, model, type InferSchemaType } from 'mongoose';

/**
 * One sign-in: the token names it (`sid`), and a token is accepted only
 * while its session is neither ended nor expired and still carries the
 * user's token version (a new password, role or second-factor reset raises
 * that version and so ends every session at once).
 */
const sessionSchema = new Schema({
  // Random (session.service.ts's newSessionId), never an ObjectId: a token
  // names its session, and an id that grows with time can be guessed from
  // the ids of sign-ins just before and after.
  _id: { type: String, required: true },
  userId: { type: String, required: true },
  tokenVersion: { type: Number, required: true },
  ip: { type: String, required: true },
  userAgent: { type: String, default: '' },
  signedInAt: { type: Date, required: true },
  lastSeenAt: { type: Date, required: true },
  expiresAt: { type: Date, required: true },
  endedAt: { type: Date, default: null },
});

sessionSchema.index({ userId: 1, lastSeenAt: -1 });

export type Session = InferSchemaType<typeof sessionSchema>;
export const SessionModel = model('Session', sessionSchema, 'sessions');
