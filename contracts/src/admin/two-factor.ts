import { object, type InferType } from 'yup';
import { message, text } from '../validation/fields';
import { PASSWORD_MAX_LENGTH, type LoginSuccessResponse } from './auth';

/** Six digits from an authenticator app (RFC 6238, 30-second steps). */
export const TOTP_DIGITS = 6;
export const TOTP_PERIOD_SECONDS = 30;
/** Codes one step early or late still pass: phones' clocks drift. */
export const TOTP_DRIFT_STEPS = 1;
/** How many single-use recovery codes an enrolment gives. */
export const RECOVERY_CODE_COUNT = 10;
/** A signed challenge is at most a few hundred characters. */
const CHALLENGE_MAX_LENGTH = 2048;
/** Room for a recovery code typed with spaces or dashes. */
const CODE_MAX_LENGTH = 32;

/** Whether a typed code is an authenticator code (six digits) rather than a recovery code. */
export function isTotpCode(code: string): boolean {
  return new RegExp(`^\\d{${TOTP_DIGITS}}$`).test(code.replace(/\s/g, ''));
}

const code = () => text(CODE_MAX_LENGTH).required(message('codeRequired'));
const challenge = () => text(CHALLENGE_MAX_LENGTH).required(message('required'));

/** One code: an authenticator code or, at sign-in, a recovery code. */
export const twoFactorCodeSchema = object({ code: code() });
export type TwoFactorCodeInput = InferType<typeof twoFactorCodeSchema>;

/** The sign-in's second step: the challenge of the password step and a code. */
export const secondFactorSchema = object({ challenge: challenge(), code: code() });
export type SecondFactorInput = InferType<typeof secondFactorSchema>;

/** Enrolment during sign-in starts with the challenge alone. */
export const enrolmentStartSchema = object({ challenge: challenge() });
export type EnrolmentStartInput = InferType<typeof enrolmentStartSchema>;

/** The account's password, typed to prove who is at the keyboard: used exactly as typed. */
const typedPassword = () =>
  text(PASSWORD_MAX_LENGTH).transform((_value: unknown, original: unknown) => original);

/**
 * Proof, in the request itself, that the account's owner makes a security
 * change and not someone holding a stolen session: the password, or, while
 * two-factor sign-in is on, a current authenticator code. An empty `code`
 * that was sent is reported under `code` (the form asked for a code),
 * otherwise a missing proof under `password`. The API checks which proofs
 * the account's state allows.
 */
export const reauthenticationSchema = object({
  password: typedPassword().optional(),
  code: text(CODE_MAX_LENGTH).optional(),
}).test('proof', (value, context) => {
  if (value.password || value.code) return true;
  return value.code === undefined
    ? context.createError({ path: 'password', message: message('passwordRequired') })
    : context.createError({ path: 'code', message: message('codeRequired') });
});
export type ReauthenticationInput = InferType<typeof reauthenticationSchema>;

/** Starting a set-up: two-factor sign-in is off, so only the password proves the owner. */
export const twoFactorSetupSchema = object({
  password: typedPassword().required(message('passwordRequired')),
});
export type TwoFactorSetupInput = InferType<typeof twoFactorSetupSchema>;

/** Confirming a set-up: the first code of the new secret, and the password again. */
export const twoFactorConfirmSchema = twoFactorCodeSchema.concat(twoFactorSetupSchema);
export type TwoFactorConfirmInput = InferType<typeof twoFactorConfirmSchema>;

/** A new secret to add to an authenticator app: shown as a QR code and as text. */
export interface TwoFactorSetupResponse {
  /** Base32, as apps accept it typed in. */
  secret: string;
  /** The otpauth:// address the QR code holds. */
  otpauthUri: string;
}

/** Shown once: the codes are stored only as hashes. */
export interface RecoveryCodesResponse {
  recoveryCodes: string[];
}

/** Enrolment during sign-in ends signed in, with the recovery codes to keep. */
export type EnrolmentCompleteResponse = LoginSuccessResponse & RecoveryCodesResponse;

export interface TwoFactorStatusResponse {
  enabled: boolean;
  /** The user's role must have it: it cannot be turned off. */
  required: boolean;
  enabledAt: string | null;
  recoveryCodesLeft: number;
}
