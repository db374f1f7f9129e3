import { defineNamespace } from '../../lib/translations';
import en from './locales/report/en.json';

/** A sent campaign's results: delivery, opens and clicks, links, languages, and who did what. */
export const REPORT_NAMESPACE = defineNamespace({
  name: 'admin-campaign-report',
  en,
  fr: () => import('./locales/report/fr.json'),
  ar: () => import('./locales/report/ar.json'),
});
