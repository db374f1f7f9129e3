import { isApiErrorBody } from '@agency/contracts';
import { apiErrorMessage, errorStatusOf } from '../../lib/api-errors';

/** Which message the "Login failed" toast carries (keys of the account namespace). */
export type LoginFailureText =
  | { key: 'login.wrongCredentials' | 'login.tooManyAttempts' | 'login.errorOccurred' }
  | { key: 'login.invalidCredentials'; serverText?: string };

/**
 * The spec's wording: the server's text or 'Invalid credentials', and 'An
 * error occurred' when no answer came at all. The two answers staff meet
 * most (wrong password, too many tries) are worded in the page's language.
 */
export function loginFailureText(error: unknown): LoginFailureText {
  const status = errorStatusOf(error);
  if (status === undefined) return { key: 'login.errorOccurred' };
  const data: unknown = (error as { data?: unknown }).data;
  const code = isApiErrorBody(data) ? data.error.code : undefined;
  if (code === 'UNAUTHENTICATED') return { key: 'login.wrongCredentials' };
  if (code === 'RATE_LIMITED') return { key: 'login.tooManyAttempts' };
  return { key: 'login.invalidCredentials', serverText: apiErrorMessage(error) };
}
