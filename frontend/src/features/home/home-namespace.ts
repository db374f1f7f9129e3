import { defineNamespace } from '../../lib/translations';
import en from './locales/en.json';

/** The hero's texts: part of the first load, so kept to the hero alone. */
export const HOME_NAMESPACE = defineNamespace({
  name: 'home',
  en,
  fr: () => import('./locales/fr.json'),
  ar: () => import('./locales/ar.json'),
});
