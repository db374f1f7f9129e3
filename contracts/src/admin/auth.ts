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
}

export interface LoginFailureResponse {
  success: false;
  error: { code: string; message: string; fields?: Record<string, string> };
}

export type LoginResponse = LoginSuccessResponse | LoginFailureResponse;

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
