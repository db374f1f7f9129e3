import { randomBytes } from 'node:crypto';
import type {
  LoginInput,
  LoginSuccessResponse,
  PasswordChangeInput,
  PasswordChangeResponse,
  ValidationMessageKey,
} from '@agency/contracts';
import { HttpError } from '../../errors';
import {
  changeOwnPassword,
  findUserByLogin,
  hashPassword,
  recordSuccessfulLogin,
  toAuthUserDto,
  verifyPassword,
} from '../users';
import { recordActivity } from '../activity-log';
import type { LoginThrottle } from './login-throttle';
import type { TokenService } from './token.service';

let dummyHash: Promise<string> | undefined;

/**
 * A hash of a random password with the same parameters as real ones: an
 * unknown username is checked against it, so it costs the same time as a
 * wrong password and the answer time does not reveal which names exist.
 */
export function unknownUserHash(): Promise<string> {
  dummyHash ??= hashPassword(randomBytes(24).toString('base64'));
  return dummyHash;
}

export interface LoginDeps {
  tokens: TokenService;
  throttle: LoginThrottle;
}

const INVALID_CREDENTIALS = 'Invalid username or password';

/** The throttle's key of a known account, shared by sign-in and password change. */
function accountKey(userId: string): string {
  return `user-${userId}`;
}

export async function login(
  { tokens, throttle }: LoginDeps,
  input: LoginInput,
  ip: string,
): Promise<LoginSuccessResponse> {
  const user = await findUserByLogin(input.username);
  // One counter per account however it is named (username or e-mail).
  const account = user ? accountKey(String(user._id)) : `name-${input.username.toLowerCase()}`;
  await throttle.assertAllowed(ip, account);

  const valid = user
    ? await verifyPassword(user.passwordHash, input.password)
    : await verifyPassword(await unknownUserHash(), input.password).then(() => false);

  if (!user || !valid) {
    await throttle.recordFailure(ip, account);
    await recordActivity({
      actor: user ? { id: String(user._id), username: user.username } : null,
      action: 'auth.login-failed',
      target: { type: 'user', label: input.username },
      ip,
    });
    throw new HttpError('UNAUTHENTICATED', INVALID_CREDENTIALS);
  }

  await throttle.recordSuccess(account);
  await recordSuccessfulLogin(String(user._id));
  await recordActivity({
    actor: { id: String(user._id), username: user.username },
    action: 'auth.login',
    target: { type: 'user', id: String(user._id), label: user.username },
    ip,
  });
  const { token, expiresAt } = tokens.issue(user);
  return { success: true, token, expiresAt: expiresAt.toISOString(), user: toAuthUserDto(user) };
}

/** Why a password change was refused, as the field it concerns and the reason's message key. */
export class PasswordChangeRefused extends Error {
  constructor(
    readonly field: keyof PasswordChangeInput,
    readonly reason: ValidationMessageKey,
  ) {
    super(reason);
  }
}

/**
 * A signed-in user sets a new password. Wrong current passwords count as
 * failed sign-ins of the account, so a stolen session cannot be used to guess
 * the password faster than the sign-in page allows.
 */
export async function changePassword(
  { tokens, throttle }: LoginDeps,
  userId: string,
  input: PasswordChangeInput,
  ip: string,
): Promise<PasswordChangeResponse> {
  const account = accountKey(userId);
  await throttle.assertAllowed(ip, account);
  const outcome = await changeOwnPassword(userId, input);
  if (outcome === 'current-password-wrong') {
    await throttle.recordFailure(ip, account);
    throw new PasswordChangeRefused('currentPassword', 'currentPasswordWrong');
  }
  if (outcome === 'unchanged') throw new PasswordChangeRefused('newPassword', 'passwordUnchanged');
  const { token, expiresAt } = tokens.issue(outcome);
  return { token, expiresAt: expiresAt.toISOString(), user: toAuthUserDto(outcome) };
}
