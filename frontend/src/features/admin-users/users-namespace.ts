import { defineNamespace } from '../../lib/translations';
import en from './locales/en.json';

/** User Management: the staff accounts and the activity log. */
export const USERS_NAMESPACE = defineNamespace({
  name: 'admin-users',
  en,
  fr: () => import('./locales/fr.json'),
  ar: () => import('./locales/ar.json'),
});
