import { defineNamespace } from '../../lib/translations';
import en from './locales/en.json';

/** The clients section. */
export const CLIENTS_NAMESPACE = defineNamespace({
  name: 'admin-clients',
  en,
  fr: () => import('./locales/fr.json'),
  ar: () => import('./locales/ar.json'),
});
