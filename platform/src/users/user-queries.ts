import { trusted } from 'mongoose';
import type { UserListQuery } from '@agency/contracts';
import { equalityFilter, findPage, searchFilter } from '../list-pages';
import { UserModel, type UserDocument } from './user.model';
import type { StoredUser } from './stored-user';

function storedUserOf(user: UserDocument | null): StoredUser | null {
  return user ? user.toObject<StoredUser>() : null;
}

export async function findUserById(id: string): Promise<StoredUser | null> {
  return storedUserOf(await UserModel.findById(id).exec());
}

/** A sign-in name is the username or the e-mail address, in any case. */
export async function findUserByLogin(identifier: string): Promise<StoredUser | null> {
  const name = identifier.trim().toLowerCase();
  return storedUserOf(
    await UserModel.findOne(name.includes('@') ? { email: name } : { username: name }).exec(),
  );
}

/** The name a user is shown by in the activity log, or null when no user has this id. */
export async function findUsernameById(id: string): Promise<string | null> {
  const user = await UserModel.findById(id).select({ username: 1 }).lean();
  return user ? user.username : null;
}

/** Names of users by id, for showing who a record is assigned to. */
export async function findUsernamesByIds(ids: readonly string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const users = await UserModel.find({ _id: trusted({ $in: [...new Set(ids)] }) })
    .select({ username: 1 })
    .lean();
  return new Map(users.map((user) => [String(user._id), user.username]));
}

export async function adminExists(): Promise<boolean> {
  return (await UserModel.exists({ role: 'admin' })) !== null;
}

/** One page of the users list, filtered by role and searched by name and e-mail. */
export async function findUsersPage(
  query: UserListQuery,
): Promise<{ users: StoredUser[]; total: number }> {
  const filter = {
    ...equalityFilter(query, ['role']),
    ...searchFilter(query.search, ['username', 'email']),
  };
  const { docs, total } = await findPage(UserModel, filter, query);
  // Lean reads of this model: their ids are the stored ObjectIds.
  return { users: docs as StoredUser[], total };
}
