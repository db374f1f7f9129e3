import { defineNamespace } from '../../lib/translations';
import en from './locales/en.json';

/** The contact section's, page's and form's texts. */
export const CONTACT_NAMESPACE = defineNamespace({
  name: 'contact',
  en,
  fr: () => import('./locales/fr.json'),
  ar: () => import('./locales/ar.json'),
});
