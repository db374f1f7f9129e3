import { VALIDATION_MESSAGES } from '@agency/contracts';
import { defineNamespace } from './translations';

/**
 * The schema's message keys, worded from the contracts catalogue the API
 * answers from, so the browser and the API word errors identically. Every
 * form (contact, newsletter, admin) renders its errors through it.
 */
export const VALIDATION_NAMESPACE = defineNamespace({
  name: 'validation',
  en: VALIDATION_MESSAGES.en,
  fr: () => Promise.resolve({ default: VALIDATION_MESSAGES.fr }),
  ar: () => Promise.resolve({ default: VALIDATION_MESSAGES.ar }),
});
