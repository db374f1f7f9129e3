import { defineNamespace } from '../../lib/translations';
import en from './locales/en.json';

/** Sign-in and Settings. */
export const ACCOUNT_NAMESPACE = defineNamespace({
  name: 'admin-account',
  en,
  load: (locale) => (locale === 'fr' ? import('./locales/fr.json') : import('./locales/ar.json')),
});
