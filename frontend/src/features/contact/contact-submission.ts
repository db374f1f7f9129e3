import { contactSchema, type ContactFormValues, type Locale } from '@agency/contracts';
import type { FormikErrors } from 'formik';
import { fieldErrorsOf } from '../../lib/api-errors';
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

/** Every field the API may name in its reasons: the text fields and the news box. */
const ANSWERED_FIELDS = [...CONTACT_FIELDS, 'newsletterConsent'] as const;

/** The per-field reasons of an error answer, for the fields this form has. */
export function serverFieldErrors(error: unknown): FormikErrors<ContactFormValues> | undefined {
  return fieldErrorsOf(error, ANSWERED_FIELDS);
}
