import type { Role } from '@agency/contracts';
import { conflictFromDuplicateKey } from './user-guards';
import { UserModel } from './user.model';
import type { StoredUser } from './stored-user';

/** What an account is written with: the API hashes the password (argon2 lives there). */
export interface UserAccountFields {
  username: string;
  email: string;
  role: Role;
}

/**
 * Demo mode only: makes sure the demo admin exists with this password hash,
 * so the credentials printed by `npm start` always work.
 */
export async function upsertDemoAdmin({
  username,
  email,
  passwordHash,
}: {
  username: string;
  email: string;
  passwordHash: string;
}): Promise<void> {
  await UserModel.updateOne(
    { username: username.toLowerCase() },
    {
      $set: { email: email.toLowerCase(), role: 'admin', passwordHash },
      $setOnInsert: { username: username.toLowerCase() },
    },
    { upsert: true },
  ).exec();
}

/** Creates an account; a username or e-mail taken meanwhile is a conflict. */
export async function insertUser(
  account: UserAccountFields & { passwordHash: string },
): Promise<StoredUser> {
  try {
    const user = await UserModel.create({
      username: account.username,
      email: account.email,
      role: account.role,
      passwordHash: account.passwordHash,
    });
    return user.toObject<StoredUser>();
  } catch (error: unknown) {
    return conflictFromDuplicateKey(error);
  }
}

/**
 * Saves an edit of the user as it was read: only the fields that changed
 * are written. A new password or a new role raises the token version, so a
 * stolen session or a demoted user's open tabs stop working at once.
 */
export async function saveUserEdit(
  loaded: StoredUser,
  edit: UserAccountFields & { passwordHash?: string },
): Promise<StoredUser> {
  const user = UserModel.hydrate(loaded);
  const roleChanges = user.role !== edit.role;
  user.username = edit.username;
  user.email = edit.email;
  user.role = edit.role;
  if (edit.passwordHash) user.passwordHash = edit.passwordHash;
  if (edit.passwordHash || roleChanges) user.tokenVersion += 1;
  try {
    await user.save();
  } catch (error: unknown) {
    conflictFromDuplicateKey(error);
  }
  return user.toObject<StoredUser>();
}

/**
 * A user's own new password (Settings), saved over the user as it was read.
 * It raises the token version: every other session of this user ends.
 */
export async function saveOwnPassword(
  loaded: StoredUser,
  passwordHash: string,
): Promise<StoredUser> {
  const user = UserModel.hydrate(loaded);
  user.passwordHash = passwordHash;
  user.tokenVersion += 1;
  await user.save();
  return user.toObject<StoredUser>();
}

/**
 * A password set through a reset link. Raising the token version ends
 * every session of the user, wherever it was signed in.
 */
export async function setPasswordHashAfterReset(
  id: string,
  passwordHash: string,
): Promise<StoredUser | null> {
  const user = await UserModel.findOneAndUpdate(
    { _id: id },
    { $set: { passwordHash }, $inc: { tokenVersion: 1 } },
    { returnDocument: 'after' },
  ).exec();
  return user ? user.toObject<StoredUser>() : null;
}

export async function recordSuccessfulLogin(id: string): Promise<void> {
  await UserModel.updateOne({ _id: id }, { $set: { lastLoginAt: new Date() } }).exec();
}

/** Deleting a user ends their sessions too: their tokens name a user that is gone. */
export async function deleteUserById(id: string): Promise<void> {
  await UserModel.deleteOne({ _id: id }).exec();
}
