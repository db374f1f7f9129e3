import { defineNamespace } from '../../lib/translations';
import en from './locales/en.json';

/** Titles and descriptions of the pages, as search engines and shared links show them. */
export const SEO_NAMESPACE = defineNamespace({
  name: 'seo',
  en,
  load: (locale) => (locale === 'fr' ? import('./locales/fr.json') : import('./locales/ar.json')),
});
