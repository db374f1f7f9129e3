import type { Types } from 'mongoose';
import type { User } from './user.model';

/**
 * A staff account as stored, as plain data: what the users module's queries
 * answer and its commands take back. Read through the model, so the
 * schema's defaults (token version 0, no second factor) are filled in.
 */
export type StoredUser = User & { _id: Types.ObjectId };

/** A recovery code as stored: its public id and the argon2 hash of its secret part. */
export interface StoredRecoveryCode {
  id: string;
  hash: string;
}
