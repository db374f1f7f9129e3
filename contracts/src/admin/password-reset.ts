import { mixed, object, type InferType } from 'yup';
import { LOCALES, type Locale } from '../locales';
import { message, text } from '../validation/fields';
import { emailAddress } from '../validation/email-address';
import { newPassword } from './auth';

/** How long a reset link works after its mail was written. */
export const PASSWORD_RESET_TTL_MINUTES = 30;
/** The link's token: 43 characters of base64url; anything far longer is not ours. */
const RESET_TOKEN_MAX_LENGTH = 256;

/** The site's page a reset mail links to (the token in its query). */
export const PASSWORD_RESET_PAGE = '/admin/reset-password';

/** "Forgot password": the address to send a link to, and the language of the mail. */
export const passwordResetRequestSchema = object({
  email: emailAddress(),
  locale: mixed<Locale>().optional().oneOf(LOCALES, message('localeInvalid')),
});
export type PasswordResetRequestInput = InferType<typeof passwordResetRequestSchema>;

/** The reset page: the link's token and the new password. */
export const passwordResetSchema = object({
  token: text(RESET_TOKEN_MAX_LENGTH).required(message('linkTokenRequired')),
  newPassword: newPassword().required(message('passwordRequired')),
});
export type PasswordResetInput = InferType<typeof passwordResetSchema>;

/** The same answer whether or not the address belongs to anyone. */
export const PASSWORD_RESET_REQUEST_RESPONSE = { status: 'accepted' } as const;
export type PasswordResetRequestResponse = typeof PASSWORD_RESET_REQUEST_RESPONSE;

export interface PasswordResetResponse {
  status: 'reset';
}
