import { UserModel, type UserDocument } from './user.model';

/** The staff member with this e-mail address, in any case. */
export async function findUserByEmail(email: string): Promise<UserDocument | null> {
  return UserModel.findOne({ email: email.trim().toLowerCase() }).exec();
}
