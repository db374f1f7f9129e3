import { VALIDATION_MESSAGES } from '@agency/contracts';
import { defineNamespace } from './translations';

/**
 * The schema's message keys, worded from the contracts catalogue the API
 * answers from, so the browser and the API word errors identically. Shared by
 * every form (contact, newsletter), so it lives outside the features.
 */
export const VALIDATION_NAMESPACE = defineNamespace({
  name: 'validation',
  en: VALIDATION_MESSAGES.en,
  load: (locale) => Promise.resolve({ default: VALIDATION_MESSAGES[locale] }),
});
