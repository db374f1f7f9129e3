export { userRoutes } from './user.routes';
export {
  changeOwnPassword,
  createUser,
  ensureBootstrapAdmin,
  ensureDemoAdmin,
  findUserById,
  findUserByLogin,
  recordSuccessfulLogin,
  toAuthUserDto,
  userNamesById,
  type DemoAdmin,
} from './user.service';
export { UserModel, type User, type UserDocument } from './user.model';
export { hashPassword, verifyPassword } from './password';
