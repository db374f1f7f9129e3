import { Schema, model, type HydratedDocument, type InferSchemaType } from 'mongoose';
import { ROLES } from '@agency/contracts';

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
  },
  { timestamps: true },
);

userSchema.index({ role: 1 });
userSchema.index({ createdAt: -1 });

export type User = InferSchemaType<typeof userSchema>;
export type UserDocument = HydratedDocument<User>;
export const UserModel = model('User', userSchema);
