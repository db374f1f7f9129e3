import { defineNamespace } from '../../lib/translations';
import en from './locales/en.json';

/** The people section: everyone held, the bulk actions, the export and a person's page. */
export const PEOPLE_NAMESPACE = defineNamespace({
  name: 'admin-people',
  en,
  fr: () => import('./locales/fr.json'),
  ar: () => import('./locales/ar.json'),
});
