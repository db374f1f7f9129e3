import { defineNamespace } from '../../lib/translations';
import en from './locales/en.json';

/** The audience section: lists, imports and the suppression list. */
export const AUDIENCE_NAMESPACE = defineNamespace({
  name: 'admin-audience',
  en,
  load: (locale) => (locale === 'fr' ? import('./locales/fr.json') : import('./locales/ar.json')),
});
