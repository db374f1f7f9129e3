import type { ContactFormValues } from '@agency/contracts';

/** A complete, valid enquiry; override only what a test is about. */
export function buildContactValues(overrides: Partial<ContactFormValues> = {}): ContactFormValues {
  return {
    firstName: 'Ada',
    lastName: 'Lovelace',
    email: 'ada@example.com',
    phone: '',
    service: 'web-design',
    message: 'We need a new website for our bakery.',
    newsletterConsent: false,
    ...overrides,
  };
}
