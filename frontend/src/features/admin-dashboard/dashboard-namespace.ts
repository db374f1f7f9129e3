import { defineNamespace } from '../../lib/translations';
import en from './locales/en.json';

/** The dashboard's figures, overview and the Analytics charts. */
export const DASHBOARD_NAMESPACE = defineNamespace({
  name: 'admin-dashboard',
  en,
  fr: () => import('./locales/fr.json'),
  ar: () => import('./locales/ar.json'),
});
