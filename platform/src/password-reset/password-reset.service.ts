import { isValidObjectId, trusted, type Types } from 'mongoose';
import { PASSWORD_RESET_TTL_MINUTES, type Locale } from '@agency/contracts';
import {
  PasswordResetModel,
  type PasswordReset,
  type PasswordResetDocument,
} from './password-reset.model';
import { newResetToken, resetTokenHash } from './password-reset-token';

/** A reset request as stored, as plain data, the schema's defaults filled in. */
export type StoredResetRequest = PasswordReset & { _id: Types.ObjectId };

function storedRequestOf(request: PasswordResetDocument | null): StoredResetRequest | null {
  return request ? request.toObject<StoredResetRequest>() : null;
}

/** Stores a request, whoever the address belongs to; the answer is its id. */
export async function storeResetRequest(request: {
  email: string;
  locale: Locale;
  ip: string;
}): Promise<string> {
  const stored = await PasswordResetModel.create({ ...request, requestedAt: new Date() });
  return String(stored._id);
}

export async function findResetRequest(id: string): Promise<StoredResetRequest | null> {
  return isValidObjectId(id) ? storedRequestOf(await PasswordResetModel.findById(id).exec()) : null;
}

/**
 * Writes a new token for a request of a staff member's address and answers
 * it, for the mail. Each call (a retried mail) replaces the token: only the
 * latest mail's link works. The 30 minutes start now, when the mail is written.
 */
export async function issueResetToken(
  requestId: string,
  userId: string,
  now = new Date(),
): Promise<{ token: string; expiresAt: Date }> {
  const token = newResetToken();
  const expiresAt = new Date(now.getTime() + PASSWORD_RESET_TTL_MINUTES * 60_000);
  await PasswordResetModel.updateOne(
    { _id: requestId, usedAt: null },
    { $set: { userId, tokenHash: resetTokenHash(token), expiresAt } },
  ).exec();
  return { token, expiresAt };
}

/**
 * Redeems a link: the request it names, if the link is unused and in time,
 * marked used in the same step. Null for any other link.
 */
export async function redeemResetLink(
  token: string,
  now = new Date(),
): Promise<StoredResetRequest | null> {
  const redeemed = await PasswordResetModel.findOneAndUpdate(
    {
      tokenHash: resetTokenHash(token),
      usedAt: null,
      userId: trusted({ $ne: null }),
      expiresAt: trusted({ $gt: now }),
    },
    { $set: { usedAt: now } },
    { returnDocument: 'after' },
  ).exec();
  return storedRequestOf(redeemed);
}

/** Once a password is reset, the user's other links stop working too. */
export async function voidOtherResetLinks(userId: string, now = new Date()): Promise<void> {
  await PasswordResetModel.updateMany({ userId, usedAt: null }, { $set: { usedAt: now } }).exec();
}
