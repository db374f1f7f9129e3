import { defineNamespace } from '../../lib/translations';
import en from './locales/en.json';

/** The Mail Manager: campaigns, their sending and its progress. */
export const CAMPAIGNS_NAMESPACE = defineNamespace({
  name: 'admin-campaigns',
  en,
  fr: () => import('./locales/fr.json'),
  ar: () => import('./locales/ar.json'),
});
