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
  adminExists,
  assertAnotherAdminExists,
  assertUsernameAndEmailFree,
  deleteUserById,
  DomainError,
  findUserById,
  findUsersPage,
  insertUser,
  isoOrNull,
  pageOf,
  saveOwnPassword,
  saveUserEdit,
  setPasswordHashAfterReset,
  upsertDemoAdmin,
  type StoredUser,
} from '@agency/platform';
import { hashPassword, verifyPassword } from './password';

export interface DemoAdmin {
  username: string;
  email: string;
  password: string;
}

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
  await upsertDemoAdmin({ username, email, passwordHash });
}

/**
 * Compose and first installs: creates this admin only while no admin exists,
 * so restarting with the variables still set never resets a changed password.
 * Several API replicas start at once with the same variables: the one that
 * loses the race to create it finds it made, and starts all the same.
 */
export async function ensureBootstrapAdmin(admin: DemoAdmin): Promise<boolean> {
  if (await adminExists()) return false;
  try {
    await createUser({ ...admin, role: 'admin' });
    return true;
  } catch (error: unknown) {
    if (error instanceof DomainError && (await adminExists())) return false;
    throw error;
  }
}

/**
 * A password set through a reset link. Raising the token version ends
 * every session of the user, wherever it was signed in.
 */
export async function setPasswordAfterReset(
  id: string,
  password: string,
): Promise<StoredUser | null> {
  const passwordHash = await hashPassword(password);
  return setPasswordHashAfterReset(id, passwordHash);
}

export async function listUsers(query: UserListQuery): Promise<Page<UserDto>> {
  const { users, total } = await findUsersPage(query);
  return pageOf(users.map(toUserDto), total, query);
}

async function existingUser(id: string): Promise<StoredUser> {
  const user = await findUserById(id);
  if (!user) throw new HttpError('NOT_FOUND', 'No user with this id');
  return user;
}

export async function getUser(id: string): Promise<UserDto> {
  return toUserDto(await existingUser(id));
}

export async function createUser(input: UserCreateInput): Promise<UserDto> {
  await assertUsernameAndEmailFree(input);
  const passwordHash = await hashPassword(input.password);
  return toUserDto(
    await insertUser({
      username: input.username,
      email: input.email,
      role: input.role,
      passwordHash,
    }),
  );
}

/**
 * Edits a user. A new password or a new role revokes the user's tokens, so a
 * stolen session or a demoted user's open tabs stop working at once.
 */
export async function updateUser(id: string, input: UserUpdateInput): Promise<UserDto> {
  const user = await existingUser(id);
  await assertUsernameAndEmailFree(input, id);
  const roleChanges = user.role !== input.role;
  if (roleChanges && user.role === 'admin') await assertAnotherAdminExists(id);
  const passwordHash = input.password ? await hashPassword(input.password) : undefined;
  const saved = await saveUserEdit(user, {
    username: input.username,
    email: input.email,
    role: input.role,
    ...(passwordHash ? { passwordHash } : {}),
  });
  return toUserDto(saved);
}

/** Deleting a user ends their sessions too: their tokens name a user that is gone. */
export async function deleteUser(id: string, actorId: string): Promise<UserDto> {
  if (id === actorId) {
    throw new HttpError('CONFLICT', 'You cannot delete your own account');
  }
  const user = await existingUser(id);
  if (user.role === 'admin') await assertAnotherAdminExists(id);
  await deleteUserById(id);
  return toUserDto(user);
}

/**
 * A user's own password change (Settings). Like an admin's edit, it raises
 * the token version: every other session of this user ends.
 */
export async function changeOwnPassword(
  id: string,
  { currentPassword, newPassword }: PasswordChangeInput,
): Promise<StoredUser | 'current-password-wrong' | 'unchanged'> {
  const user = await existingUser(id);
  if (!(await verifyPassword(user.passwordHash, currentPassword))) return 'current-password-wrong';
  if (currentPassword === newPassword) return 'unchanged';
  return saveOwnPassword(user, await hashPassword(newPassword));
}
