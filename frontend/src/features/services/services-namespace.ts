import { defineNamespace } from '../../lib/translations';
import en from './locales/en.json';

export const SERVICES_NAMESPACE = defineNamespace({
  name: 'services',
  en,
  load: (locale) => (locale === 'fr' ? import('./locales/fr.json') : import('./locales/ar.json')),
});
