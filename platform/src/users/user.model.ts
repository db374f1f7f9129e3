import { Schema, model, type HydratedDocument, type InferSchemaType } from 'mongoose';
import { ROLES } from '@agency/contracts';

/**
 * A second factor (TOTP, RFC 6238). The secret is kept encrypted; recovery
 * codes only as argon2 hashes, each under a short public id so one check
 * costs one hash, not ten. `lastStep` is the newest time step a code was
 * accepted for: no code of that step or an older one passes again.
 */
const twoFactorSchema = new Schema(
  {
    secret: { type: String, required: true },
    enabledAt: { type: Date, required: true },
    lastStep: { type: Number, required: true, default: 0 },
    recoveryCodes: {
      type: [new Schema({ id: String, hash: String }, { _id: false })],
      default: [],
    },
  },
  { _id: false },
);

const userSchema = new Schema(
  {
    username: { type: String, required: true, unique: true, lowercase: true, trim: true },
    email: { type: String, required: true, unique: true, lowercase: true, trim: true },
    role: { type: String, required: true, enum: ROLES, default: 'viewer' },
    passwordHash: { type: String, required: true },
    lastLoginAt: { type: Date },
    // Carried in every token; raising it revokes the user's tokens at once
    // (password change, role change), without a list of revoked tokens.
    tokenVersion: { type: Number, required: true, default: 0 },
    twoFactor: { type: twoFactorSchema, default: null },
    // A secret shown for enrolment and not yet confirmed with a code.
    pendingTwoFactorSecret: { type: String, default: null },
  },
  { timestamps: true },
);

userSchema.index({ role: 1 });
userSchema.index({ createdAt: -1 });

export type User = InferSchemaType<typeof userSchema>;
export type UserDocument = HydratedDocument<User>;
export const UserModel = model('User', userSchema);
