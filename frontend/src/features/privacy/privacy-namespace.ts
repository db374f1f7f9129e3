import { defineNamespace } from '../../lib/translations';
import en from './locales/en.json';

export const PRIVACY_NAMESPACE = defineNamespace({
  name: 'privacy',
  en,
  fr: () => import('./locales/fr.json'),
  ar: () => import('./locales/ar.json'),
});
