import { defineNamespace } from '../../lib/translations';
import en from './locales/en.json';

/** The Mail Manager: campaigns, their sending and its progress. */
export const CAMPAIGNS_NAMESPACE = defineNamespace({
  name: 'admin-campaigns',
  en,
  load: (locale) => (locale === 'fr' ? import('./locales/fr.json') : import('./locales/ar.json')),
});
