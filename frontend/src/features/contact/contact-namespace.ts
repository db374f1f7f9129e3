import { VALIDATION_MESSAGES } from '@agency/contracts';
import { defineNamespace } from '../../lib/translations';
import en from './locales/en.json';

/** The contact section's, page's and form's texts. */
export const CONTACT_NAMESPACE = defineNamespace({
  name: 'contact',
  en,
  load: (locale) => (locale === 'fr' ? import('./locales/fr.json') : import('./locales/ar.json')),
});

/**
 * The schema's message keys, worded from the contracts catalogue the API
 * answers from, so the browser and the API word errors identically.
 */
export const VALIDATION_NAMESPACE = defineNamespace({
  name: 'validation',
  en: VALIDATION_MESSAGES.en,
  load: (locale) => Promise.resolve({ default: VALIDATION_MESSAGES[locale] }),
});
