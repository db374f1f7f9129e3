import { defineNamespace } from '../../lib/translations';
import en from './locales/en.json';

/** Words every admin screen shares: actions, list states, statuses, roles. */
export const ADMIN_COMMON_NAMESPACE = defineNamespace({
  name: 'admin-common',
  en,
  fr: () => import('./locales/fr.json'),
  ar: () => import('./locales/ar.json'),
});
