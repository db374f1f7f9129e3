import { defineNamespace } from '../../lib/translations';
import en from './locales/sections/en.json';

/** The texts of the sections below the hero, which load after it. */
export const HOME_SECTIONS_NAMESPACE = defineNamespace({
  name: 'home-sections',
  en,
  fr: () => import('./locales/sections/fr.json'),
  ar: () => import('./locales/sections/ar.json'),
});
