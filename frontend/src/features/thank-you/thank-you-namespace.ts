import { defineNamespace } from '../../lib/translations';
import en from './locales/en.json';

export const THANK_YOU_NAMESPACE = defineNamespace({
  name: 'thank-you',
  en,
  load: (locale) => (locale === 'fr' ? import('./locales/fr.json') : import('./locales/ar.json')),
});
