import { defineNamespace } from '../../lib/translations';
import en from './locales/en.json';

export const THANK_YOU_NAMESPACE = defineNamespace({
  name: 'thank-you',
  en,
  fr: () => import('./locales/fr.json'),
  ar: () => import('./locales/ar.json'),
});
