import { trusted } from 'mongoose';
import { UserModel } from './user.model';
import type { StoredRecoveryCode } from './stored-user';

/** Keeps the secret an enrolment showed until a code from it confirms the enrolment. */
export async function savePendingTwoFactorSecret(userId: string, secret: string): Promise<void> {
  await UserModel.updateOne({ _id: userId }, { $set: { pendingTwoFactorSecret: secret } }).exec();
}

/**
 * Turns the second factor on with the confirmed secret. Only the secret that
 * was shown may be confirmed: a second enrolment started meanwhile (another
 * tab) replaced it, and then this one fails.
 */
export async function enableTwoFactor(
  userId: string,
  pendingSecret: string,
  enabled: { secret: string; lastStep: number; recoveryCodes: StoredRecoveryCode[] },
): Promise<boolean> {
  const result = await UserModel.updateOne(
    { _id: userId, pendingTwoFactorSecret: pendingSecret },
    {
      $set: {
        twoFactor: { ...enabled, enabledAt: new Date() },
        pendingTwoFactorSecret: null,
      },
    },
  ).exec();
  return result.modifiedCount === 1;
}

/**
 * Records that a code of time step `step` was accepted, unless one of this
 * step or a later one already was: a code is never accepted twice.
 */
export async function acceptTotpStep(userId: string, step: number): Promise<boolean> {
  const result = await UserModel.updateOne(
    { _id: userId, 'twoFactor.lastStep': trusted({ $lt: step }) },
    { $set: { 'twoFactor.lastStep': step } },
  ).exec();
  return result.modifiedCount === 1;
}

/**
 * Takes a recovery code out: true only for the one call that removed it.
 * The stored element is named whole (FerretDB's $pull matches elements by
 * equality, not by a query on their fields).
 */
export async function spendRecoveryCode(
  userId: string,
  code: StoredRecoveryCode,
): Promise<boolean> {
  const element = { id: code.id, hash: code.hash };
  const result = await UserModel.updateOne(
    { _id: userId, 'twoFactor.recoveryCodes.id': code.id },
    { $pull: { 'twoFactor.recoveryCodes': element } },
  ).exec();
  return result.modifiedCount === 1;
}

export async function replaceRecoveryCodes(
  userId: string,
  codes: StoredRecoveryCode[],
): Promise<void> {
  await UserModel.updateOne(
    { _id: userId, twoFactor: trusted({ $ne: null }) },
    { $set: { 'twoFactor.recoveryCodes': codes } },
  ).exec();
}

/**
 * Removes the second factor (the user turned it off, or an admin reset it).
 * With `endSessions` every token of the user stops working too.
 */
export async function removeTwoFactor(
  userId: string,
  { endSessions }: { endSessions: boolean },
): Promise<boolean> {
  const result = await UserModel.updateOne(
    { _id: userId },
    {
      $set: { twoFactor: null, pendingTwoFactorSecret: null },
      ...(endSessions && { $inc: { tokenVersion: 1 } }),
    },
  ).exec();
  return result.matchedCount === 1;
}

/** Ends every session of a user at once: their tokens carry the old version. */
export async function endAllSessionsOf(userId: string): Promise<boolean> {
  const result = await UserModel.updateOne({ _id: userId }, { $inc: { tokenVersion: 1 } }).exec();
  return result.matchedCount === 1;
}
