import { object, type InferType } from 'yup';
import type { Role } from '../roles';
import { message, text } from '../validation/fields';

/** Long enough for any real password, short enough that hashing stays cheap. */
export const PASSWORD_MAX_LENGTH = 128;
/** OWASP's minimum for a password that is the only factor. */
export const PASSWORD_MIN_LENGTH = 12;
export const USERNAME_MAX_LENGTH = 50;

/** A password being set: not trimmed (it is stored exactly as typed), 12-128 characters. */
export function newPassword() {
  return text(PASSWORD_MAX_LENGTH)
    .transform((_value: unknown, original: unknown) => original)
    .min(PASSWORD_MIN_LENGTH, message('minLength', { count: PASSWORD_MIN_LENGTH }));
}

/** Sign-in: the username may also be the e-mail address. */
export const loginSchema = object({
  username: text(254).required(message('usernameRequired')),
  // Not trimmed: a password is used exactly as typed.
  password: text(PASSWORD_MAX_LENGTH)
    .transform((_value: unknown, original: unknown) => original)
    .required(message('passwordRequired')),
});
export type LoginInput = InferType<typeof loginSchema>;

export interface AuthUserDto {
  id: string;
  username: string;
  email: string;
  role: Role;
}

export interface LoginSuccessResponse {
  success: true;
  token: string;
  /** When the token stops being accepted (ISO 8601). */
  expiresAt: string;
  user: AuthUserDto;
  /** After a sign-in with a recovery code: how many unused codes remain. */
  recoveryCodesLeft?: number;
}

/** What the sign-in still needs once the password was right. */
export const SECOND_FACTOR_STEPS = ['totp', 'enrol'] as const;
export type SecondFactorStep = (typeof SECOND_FACTOR_STEPS)[number];

/**
 * The password was right and a second factor is needed: a code from the
 * user's authenticator app (`totp`), or, for a role that requires one and a
 * user who has none yet, enrolment first (`enrol`). `success` stays false so
 * that a client knowing only the one-step sign-in stores nothing.
 */
export interface LoginSecondFactorResponse {
  success: false;
  secondFactor: SecondFactorStep;
  /** Proves the password step for a few minutes; sent back with the code. */
  challenge: string;
  challengeExpiresAt: string;
}

export interface LoginFailureResponse {
  success: false;
  error: { code: string; message: string; fields?: Record<string, string> };
}

export type LoginResponse = LoginSuccessResponse | LoginFailureResponse | LoginSecondFactorResponse;

export function isSecondFactorResponse(value: unknown): value is LoginSecondFactorResponse {
  return (
    typeof value === 'object' &&
    value !== null &&
    (SECOND_FACTOR_STEPS as readonly unknown[]).includes(
      (value as { secondFactor?: unknown }).secondFactor,
    ) &&
    typeof (value as { challenge?: unknown }).challenge === 'string'
  );
}

export interface MeResponse {
  user: AuthUserDto;
}

/**
 * What the sign-in page may show before anyone signs in: the demo account
 * (demo mode only, never in production), or null.
 */
export interface LoginOptionsResponse {
  demo: { username: string; password: string } | null;
}

/** Settings: a signed-in user changes their own password, proving they know the current one. */
export const passwordChangeSchema = object({
  currentPassword: text(PASSWORD_MAX_LENGTH)
    .transform((_value: unknown, original: unknown) => original)
    .required(message('passwordRequired')),
  newPassword: newPassword().required(message('passwordRequired')),
});
export type PasswordChangeInput = InferType<typeof passwordChangeSchema>;

/**
 * A new password revokes every earlier token, this session's included, so
 * the answer carries the token that replaces it.
 */
export type PasswordChangeResponse = Omit<LoginSuccessResponse, 'success'>;
