import { defineNamespace } from '../../lib/translations';
import en from './locales/en.json';

/** Sign-in and Settings. */
export const ACCOUNT_NAMESPACE = defineNamespace({
  name: 'admin-account',
  en,
  fr: () => import('./locales/fr.json'),
  ar: () => import('./locales/ar.json'),
});
