/** The users module's model, for tests' fixtures and assertions only. */
export { UserModel, type User, type UserDocument } from '../users/user.model';
