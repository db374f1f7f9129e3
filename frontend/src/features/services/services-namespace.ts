import { defineNamespace } from '../../lib/translations';
import en from './locales/en.json';

export const SERVICES_NAMESPACE = defineNamespace({
  name: 'services',
  en,
  fr: () => import('./locales/fr.json'),
  ar: () => import('./locales/ar.json'),
});
