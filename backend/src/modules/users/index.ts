export { userRoutes } from './user.routes';
export { userSecurityRoutes } from './user-security.routes';
export {
  changeOwnPassword,
  createUser,
  ensureBootstrapAdmin,
  ensureDemoAdmin,
  findUserById,
  findUserByLogin,
  setPasswordAfterReset,
  recordSuccessfulLogin,
  toAuthUserDto,
  userNamesById,
  type DemoAdmin,
} from './user.service';
export {
  acceptTotpStep,
  enableTwoFactor,
  endAllSessionsOf,
  removeTwoFactor,
  replaceRecoveryCodes,
  savePendingTwoFactorSecret,
  spendRecoveryCode,
  type StoredRecoveryCode,
} from './user-two-factor.service';
export { hashPassword, verifyPassword } from './password';
