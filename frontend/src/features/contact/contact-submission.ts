import {
  contactSchema,
  isApiErrorBody,
  type ContactFormValues,
  type Locale,
} from '@agency/contracts';
import type { FormikErrors } from 'formik';
import type { ContactRequest } from './api/contact-api';

/** The order fields appear in the form: the first invalid one in this order gets focus. */
export const CONTACT_FIELDS = [
  'firstName',
  'lastName',
  'email',
  'phone',
  'service',
  'message',
] as const satisfies readonly (keyof ContactFormValues)[];

export type ContactField = (typeof CONTACT_FIELDS)[number];

/**
 * Runs the values through the shared schema (which trims them) so the API gets
 * exactly what it will validate, plus the visitor's language for the reply mail.
 */
export async function toContactRequest(
  values: ContactFormValues,
  locale: Locale,
): Promise<ContactRequest> {
  const input = await contactSchema.validate({ ...values, locale }, { stripUnknown: true });
  const { phone, ...rest } = input;
  return phone ? { ...rest, phone } : rest;
}

/** The per-field reasons of a 400 VALIDATION_FAILED answer, for the fields this form has. */
export function serverFieldErrors(error: unknown): FormikErrors<ContactFormValues> | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  if (!('status' in error) || error.status !== 400 || !('data' in error)) return undefined;
  const { data } = error;
  if (!isApiErrorBody(data) || data.error.code !== 'VALIDATION_FAILED') return undefined;
  const fields = data.error.fields ?? {};
  const errors: FormikErrors<ContactFormValues> = {};
  for (const name of CONTACT_FIELDS) {
    const reason = fields[name];
    if (typeof reason === 'string' && reason) errors[name] = reason;
  }
  return Object.keys(errors).length > 0 ? errors : undefined;
}
