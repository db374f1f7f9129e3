import { defineNamespace } from '../../lib/translations';
import en from './locales/en.json';

/** The contact section's, page's and form's texts. */
export const CONTACT_NAMESPACE = defineNamespace({
  name: 'contact',
  en,
  load: (locale) => (locale === 'fr' ? import('./locales/fr.json') : import('./locales/ar.json')),
});

export { VALIDATION_NAMESPACE } from '../../lib/validation-namespace';
