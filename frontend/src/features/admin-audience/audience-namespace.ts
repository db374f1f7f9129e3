import { defineNamespace } from '../../lib/translations';
import en from './locales/en.json';

/** The audience section: lists, imports and the suppression list. */
export const AUDIENCE_NAMESPACE = defineNamespace({
  name: 'admin-audience',
  en,
  fr: () => import('./locales/fr.json'),
  ar: () => import('./locales/ar.json'),
});
