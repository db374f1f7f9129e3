import { defineNamespace } from '../../lib/translations';
import en from './locales/en.json';

/** The newsletter banner's and the mail-link pages' texts. */
export const NEWSLETTER_NAMESPACE = defineNamespace({
  name: 'newsletter',
  en,
  fr: () => import('./locales/fr.json'),
  ar: () => import('./locales/ar.json'),
});
