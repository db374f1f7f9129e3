import { trusted } from 'mongoose';
import { DomainError } from '../domain-error';
import { duplicateKeyOf } from '../list-pages';
import { UserModel } from './user.model';

const NAME_OR_EMAIL_TAKEN = 'A user with this username or e-mail already exists';
const USERNAME_TAKEN = 'This username is taken';
const EMAIL_TAKEN = 'This e-mail is already used';

/** Refuses a username or e-mail address another user (not `exceptId`) already has. */
export async function assertUsernameAndEmailFree(
  input: { username: string; email: string },
  exceptId?: string,
): Promise<void> {
  const username = input.username.toLowerCase();
  const email = input.email.toLowerCase();
  const taken = await UserModel.find({
    $or: [{ username }, { email }],
    ...(exceptId ? { _id: trusted({ $ne: exceptId }) } : {}),
  })
    .select({ username: 1, email: 1 })
    .lean();
  const fields: Record<string, string> = {};
  if (taken.some((user) => user.username === username)) fields.username = USERNAME_TAKEN;
  if (taken.some((user) => user.email === email)) fields.email = EMAIL_TAKEN;
  if (Object.keys(fields).length > 0) {
    throw new DomainError('CONFLICT', NAME_OR_EMAIL_TAKEN, fields);
  }
}

/** Two requests racing past the check above still meet the unique indexes. */
export function conflictFromDuplicateKey(error: unknown): never {
  const keys = duplicateKeyOf(error);
  if (!keys) throw error;
  const fields: Record<string, string> = {};
  if (keys.includes('username')) fields.username = USERNAME_TAKEN;
  if (keys.includes('email')) fields.email = EMAIL_TAKEN;
  throw new DomainError('CONFLICT', NAME_OR_EMAIL_TAKEN, fields);
}

/** Refuses to take the admin role from, or delete, the last admin. */
export async function assertAnotherAdminExists(exceptId: string): Promise<void> {
  const others = await UserModel.countDocuments({ role: 'admin', _id: trusted({ $ne: exceptId }) });
  if (others === 0) {
    throw new DomainError('CONFLICT', 'The last admin cannot lose the admin role', {
      role: 'At least one admin must remain',
    });
  }
}
