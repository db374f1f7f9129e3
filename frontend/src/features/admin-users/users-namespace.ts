import { defineNamespace } from '../../lib/translations';
import en from './locales/en.json';

/** User Management: the staff accounts and the activity log. */
export const USERS_NAMESPACE = defineNamespace({
  name: 'admin-users',
  en,
  load: (locale) => (locale === 'fr' ? import('./locales/fr.json') : import('./locales/ar.json')),
});
