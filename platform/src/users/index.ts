/**
 * The users module: staff accounts, their passwords' hashes, second factors
 * and token versions. It alone reads and writes the users collection; the
 * API hashes passwords and maps accounts to DTOs.
 */
export type { StoredRecoveryCode, StoredUser } from './stored-user';
export {
  adminExists,
  findUserById,
  findUserByLogin,
  findUsernameById,
  findUsernamesByIds,
  findUsersPage,
} from './user-queries';
export { findUserByEmail } from './user-lookup';
export { assertAnotherAdminExists, assertUsernameAndEmailFree } from './user-guards';
export {
  deleteUserById,
  insertUser,
  recordSuccessfulLogin,
  saveOwnPassword,
  saveUserEdit,
  setPasswordHashAfterReset,
  upsertDemoAdmin,
  type UserAccountFields,
} from './user-commands';
export {
  acceptTotpStep,
  enableTwoFactor,
  endAllSessionsOf,
  removeTwoFactor,
  replaceRecoveryCodes,
  savePendingTwoFactorSecret,
  spendRecoveryCode,
} from './user-two-factor-commands';
