import { defineNamespace } from '../../lib/translations';
import en from './locales/en.json';

/** The clients section. */
export const CLIENTS_NAMESPACE = defineNamespace({
  name: 'admin-clients',
  en,
  load: (locale) => (locale === 'fr' ? import('./locales/fr.json') : import('./locales/ar.json')),
});
