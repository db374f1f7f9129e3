import { defineNamespace } from '../../lib/translations';
import en from './locales/en.json';

export const PORTFOLIO_NAMESPACE = defineNamespace({
  name: 'portfolio',
  en,
  load: (locale) => (locale === 'fr' ? import('./locales/fr.json') : import('./locales/ar.json')),
});
