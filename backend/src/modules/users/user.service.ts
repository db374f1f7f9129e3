import { trusted } from 'mongoose';
import type {
  AuthUserDto,
  Page,
  PasswordChangeInput,
  Role,
  UserCreateInput,
  UserDto,
  UserListQuery,
  UserUpdateInput,
} from '@agency/contracts';
import { HttpError } from '../../errors';
import {
  duplicateKeyOf,
  equalityFilter,
  isoOrNull,
  pageOf,
  searchFilter,
  findPage,
  UserModel,
  type User,
  type UserDocument,
} from '@agency/platform';
import { hashPassword, verifyPassword } from './password';

export interface DemoAdmin {
  username: string;
  email: string;
  password: string;
}

type StoredUser = User & { _id: unknown };

export function toAuthUserDto(user: StoredUser): AuthUserDto {
  return {
    id: String(user._id),
    username: user.username,
    email: user.email,
    role: user.role as Role,
  };
}

export function toUserDto(user: StoredUser): UserDto {
  return {
    ...toAuthUserDto(user),
    twoFactorEnabled: Boolean(user.twoFactor),
    lastLoginAt: isoOrNull(user.lastLoginAt),
    createdAt: user.createdAt.toISOString(),
    updatedAt: user.updatedAt.toISOString(),
  };
}

/**
 * Demo mode only: makes sure the demo admin exists with the configured
 * password, so the credentials printed by `npm start` always work.
 */
export async function ensureDemoAdmin({ username, email, password }: DemoAdmin): Promise<void> {
  const passwordHash = await hashPassword(password);
  await UserModel.updateOne(
    { username: username.toLowerCase() },
    {
      $set: { email: email.toLowerCase(), role: 'admin', passwordHash },
      $setOnInsert: { username: username.toLowerCase() },
    },
    { upsert: true },
  ).exec();
}

/**
 * Compose and first installs: creates this admin only while no admin exists,
 * so restarting with the variables still set never resets a changed password.
 * Several API replicas start at once with the same variables: the one that
 * loses the race to create it finds it made, and starts all the same.
 */
export async function ensureBootstrapAdmin(admin: DemoAdmin): Promise<boolean> {
  if (await UserModel.exists({ role: 'admin' })) return false;
  try {
    await createUser({ ...admin, role: 'admin' });
    return true;
  } catch (error: unknown) {
    if (error instanceof HttpError && (await UserModel.exists({ role: 'admin' }))) return false;
    throw error;
  }
}

/** A sign-in name is the username or the e-mail address, in any case. */
export async function findUserByLogin(identifier: string): Promise<UserDocument | null> {
  const name = identifier.trim().toLowerCase();
  return UserModel.findOne(name.includes('@') ? { email: name } : { username: name }).exec();
}

/**
 * A password set through a reset link. Raising the token version ends
 * every session of the user, wherever it was signed in.
 */
export async function setPasswordAfterReset(
  id: string,
  password: string,
): Promise<UserDocument | null> {
  const passwordHash = await hashPassword(password);
  return UserModel.findOneAndUpdate(
    { _id: id },
    { $set: { passwordHash }, $inc: { tokenVersion: 1 } },
    { returnDocument: 'after' },
  ).exec();
}

export async function findUserById(id: string): Promise<UserDocument | null> {
  return UserModel.findById(id).exec();
}

export async function recordSuccessfulLogin(id: string): Promise<void> {
  await UserModel.updateOne({ _id: id }, { $set: { lastLoginAt: new Date() } }).exec();
}

export async function listUsers(query: UserListQuery): Promise<Page<UserDto>> {
  const filter = {
    ...equalityFilter(query, ['role']),
    ...searchFilter(query.search, ['username', 'email']),
  };
  const { docs: users, total } = await findPage(UserModel, filter, query);
  return pageOf(users.map(toUserDto), total, query);
}

export async function getUser(id: string): Promise<UserDto> {
  const user = await UserModel.findById(id).lean();
  if (!user) throw new HttpError('NOT_FOUND', 'No user with this id');
  return toUserDto(user);
}

/** Names of users by id, for showing who a record is assigned to. */
export async function userNamesById(ids: readonly string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const users = await UserModel.find({ _id: trusted({ $in: [...new Set(ids)] }) })
    .select({ username: 1 })
    .lean();
  return new Map(users.map((user) => [String(user._id), user.username]));
}

async function assertNameAndEmailFree(
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
  if (taken.some((user) => user.username === username)) fields.username = 'This username is taken';
  if (taken.some((user) => user.email === email)) fields.email = 'This e-mail is already used';
  if (Object.keys(fields).length > 0) {
    throw new HttpError('CONFLICT', 'A user with this username or e-mail already exists', fields);
  }
}

/** Two requests racing past the check above still meet the unique indexes. */
function conflictFromDuplicateKey(error: unknown): never {
  const keys = duplicateKeyOf(error);
  if (!keys) throw error;
  const fields: Record<string, string> = {};
  if (keys.includes('username')) fields.username = 'This username is taken';
  if (keys.includes('email')) fields.email = 'This e-mail is already used';
  throw new HttpError('CONFLICT', 'A user with this username or e-mail already exists', fields);
}

export async function createUser(input: UserCreateInput): Promise<UserDto> {
  await assertNameAndEmailFree(input);
  const passwordHash = await hashPassword(input.password);
  try {
    const user = await UserModel.create({
      username: input.username,
      email: input.email,
      role: input.role,
      passwordHash,
    });
    return toUserDto(user);
  } catch (error: unknown) {
    return conflictFromDuplicateKey(error);
  }
}

async function assertAnotherAdminExists(exceptId: string): Promise<void> {
  const others = await UserModel.countDocuments({ role: 'admin', _id: trusted({ $ne: exceptId }) });
  if (others === 0) {
    throw new HttpError('CONFLICT', 'The last admin cannot lose the admin role', {
      role: 'At least one admin must remain',
    });
  }
}

/**
 * Edits a user. A new password or a new role revokes the user's tokens, so a
 * stolen session or a demoted user's open tabs stop working at once.
 */
export async function updateUser(id: string, input: UserUpdateInput): Promise<UserDto> {
  const user = await UserModel.findById(id).exec();
  if (!user) throw new HttpError('NOT_FOUND', 'No user with this id');
  await assertNameAndEmailFree(input, id);
  const roleChanges = user.role !== input.role;
  if (roleChanges && user.role === 'admin') await assertAnotherAdminExists(id);
  user.username = input.username;
  user.email = input.email;
  user.role = input.role;
  if (input.password) user.passwordHash = await hashPassword(input.password);
  if (input.password || roleChanges) user.tokenVersion += 1;
  try {
    await user.save();
  } catch (error: unknown) {
    conflictFromDuplicateKey(error);
  }
  return toUserDto(user);
}

/** Deleting a user ends their sessions too: their tokens name a user that is gone. */
export async function deleteUser(id: string, actorId: string): Promise<UserDto> {
  if (id === actorId) {
    throw new HttpError('CONFLICT', 'You cannot delete your own account');
  }
  const user = await UserModel.findById(id).lean();
  if (!user) throw new HttpError('NOT_FOUND', 'No user with this id');
  if (user.role === 'admin') await assertAnotherAdminExists(id);
  await UserModel.deleteOne({ _id: id }).exec();
  return toUserDto(user);
}

/**
 * A user's own password change (Settings). Like an admin's edit, it raises
 * the token version: every other session of this user ends.
 */
export async function changeOwnPassword(
  id: string,
  { currentPassword, newPassword }: PasswordChangeInput,
): Promise<UserDocument | 'current-password-wrong' | 'unchanged'> {
  const user = await UserModel.findById(id).exec();
  if (!user) throw new HttpError('NOT_FOUND', 'No user with this id');
  if (!(await verifyPassword(user.passwordHash, currentPassword))) return 'current-password-wrong';
  if (currentPassword === newPassword) return 'unchanged';
  user.passwordHash = await hashPassword(newPassword);
  user.tokenVersion += 1;
  await user.save();
  return user;
}
