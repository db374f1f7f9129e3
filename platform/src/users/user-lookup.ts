import { UserModel } from './user.model';
import type { StoredUser } from './stored-user';

/** The staff member with this e-mail address, in any case. */
export async function findUserByEmail(email: string): Promise<StoredUser | null> {
  const user = await UserModel.findOne({ email: email.trim().toLowerCase() }).exec();
  return user ? user.toObject<StoredUser>() : null;
}
