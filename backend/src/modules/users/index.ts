export { userRoutes } from './user.routes';
export { userSecurityRoutes } from './user-security.routes';
export {
  changeOwnPassword,
  createUser,
  ensureBootstrapAdmin,
  ensureDemoAdmin,
  setPasswordAfterReset,
  toAuthUserDto,
  type DemoAdmin,
} from './user.service';
export { hashPassword, verifyPassword } from './password';
