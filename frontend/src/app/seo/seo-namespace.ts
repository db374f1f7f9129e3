import { defineNamespace } from '../../lib/translations';
import en from './locales/en.json';

/** Titles and descriptions of the pages, as search engines and shared links show them. */
export const SEO_NAMESPACE = defineNamespace({
  name: 'seo',
  en,
  fr: () => import('./locales/fr.json'),
  ar: () => import('./locales/ar.json'),
});
