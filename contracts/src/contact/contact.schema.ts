import { boolean, mixed, object, type InferType } from 'yup';
import { LOCALES, type Locale } from '../locales';
import { SERVICE_SLUGS, type ServiceSlug } from '../services';
import { message, text } from '../validation/fields';
import { emailAddress } from '../validation/email-address';

/** Lengths that keep one enquiry small; the spec sets only the minimums. */
export const CONTACT_LIMITS = {
  nameMax: 100,
  emailMax: 254,
  phoneMax: 40,
  messageMin: 10,
  messageMax: 5000,
} as const;

/** The enquiry form, validated identically by the browser form and the API. */
export const contactSchema = object({
  firstName: text(CONTACT_LIMITS.nameMax).required(message('firstNameRequired')),
  lastName: text(CONTACT_LIMITS.nameMax).required(message('lastNameRequired')),
  email: emailAddress().typeError(message('emailInvalid')),
  phone: text(CONTACT_LIMITS.phoneMax).optional(),
  service: mixed<ServiceSlug>()
    .transform((value: unknown) => (typeof value === 'string' ? value.trim() : value))
    .required(message('serviceRequired'))
    .oneOf(SERVICE_SLUGS, message('serviceRequired')),
  message: text(CONTACT_LIMITS.messageMax)
    .required(message('messageMinLength'))
    .min(CONTACT_LIMITS.messageMin, message('messageMinLength')),
  locale: mixed<Locale>().optional().oneOf(LOCALES, message('localeInvalid')),
  /**
   * The optional "send me news" box, unticked unless the visitor ticks it.
   * Only a JSON true or false counts as an answer: yup would otherwise read
   * "true" or 1 as a yes, and a consent must be given, not inferred.
   */
  newsletterConsent: boolean()
    .transform((_value: unknown, original: unknown) => original)
    .typeError(message('mustBeTrueOrFalse'))
    .nonNullable(message('mustBeTrueOrFalse'))
    .default(false),
});

export type ContactInput = InferType<typeof contactSchema>;

/** What the form starts with; `service` is empty until the visitor picks one. */
export interface ContactFormValues {
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  service: ServiceSlug | '';
  message: string;
  newsletterConsent: boolean;
}

export const EMPTY_CONTACT_FORM: ContactFormValues = {
  firstName: '',
  lastName: '',
  email: '',
  phone: '',
  service: '',
  message: '',
  newsletterConsent: false,
};
