import { defineNamespace } from '../../lib/translations';
import en from './locales/en.json';

/** The leads section: the sales pipeline. */
export const LEADS_NAMESPACE = defineNamespace({
  name: 'admin-leads',
  en,
  load: (locale) => (locale === 'fr' ? import('./locales/fr.json') : import('./locales/ar.json')),
});
