import { isApiErrorBody, isValidationMessage } from '@agency/contracts';
import { useCallback } from 'react';
import { useNamespace } from './translations';
import { VALIDATION_NAMESPACE } from './validation-namespace';

/** The JSON body of an RTK Query error, whatever its status. */
function errorBodyOf(error: unknown): unknown {
  if (typeof error !== 'object' || error === null || !('data' in error)) return undefined;
  return error.data;
}

/** The HTTP status of an RTK Query error (a number), or undefined for network failures. */
export function errorStatusOf(error: unknown): number | undefined {
  if (typeof error !== 'object' || error === null || !('status' in error)) return undefined;
  return typeof error.status === 'number' ? error.status : undefined;
}

/**
 * The API's own wording of a failure (`error.message` of the JSON error body,
 * the sign-in answer included), or undefined when there is none to show.
 */
export function apiErrorMessage(error: unknown): string | undefined {
  const body = errorBodyOf(error);
  if (!isApiErrorBody(body)) return undefined;
  return body.error.message || undefined;
}

/**
 * The per-field reasons of an error answer (400 VALIDATION_FAILED, 409
 * CONFLICT), for the fields a form has: they are shown under those fields.
 */
export function fieldErrorsOf<Field extends string>(
  error: unknown,
  fields: readonly Field[],
): Partial<Record<Field, string>> | undefined {
  const body = errorBodyOf(error);
  if (!isApiErrorBody(body) || !body.error.fields) return undefined;
  const reasons: Partial<Record<Field, string>> = {};
  for (const field of fields) {
    const reason = body.error.fields[field];
    if (typeof reason === 'string' && reason) reasons[field] = reason;
  }
  return Object.keys(reasons).length > 0 ? reasons : undefined;
}

/**
 * Renders a form error: a schema message (a `{ key, values }` object that
 * formik types as a string) in the page's language, or a server reason,
 * which is already readable text.
 */
export function useErrorText(): (raw: unknown) => string | undefined {
  const { t } = useNamespace(VALIDATION_NAMESPACE);
  return useCallback(
    (raw: unknown) => {
      if (isValidationMessage(raw)) return t(raw.key, raw.values);
      return typeof raw === 'string' && raw ? raw : undefined;
    },
    [t],
  );
}
