import { defineNamespace } from '../../lib/translations';
import en from './locales/en.json';

/** The contacts section: list, detail, status, conversion, export. */
export const CONTACTS_NAMESPACE = defineNamespace({
  name: 'admin-contacts',
  en,
  fr: () => import('./locales/fr.json'),
  ar: () => import('./locales/ar.json'),
});
