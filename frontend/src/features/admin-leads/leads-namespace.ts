import { defineNamespace } from '../../lib/translations';
import en from './locales/en.json';

/** The leads section: the sales pipeline. */
export const LEADS_NAMESPACE = defineNamespace({
  name: 'admin-leads',
  en,
  fr: () => import('./locales/fr.json'),
  ar: () => import('./locales/ar.json'),
});
