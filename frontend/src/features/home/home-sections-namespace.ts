import { defineNamespace } from '../../lib/translations';
import en from './locales/sections/en.json';

/** The texts of the sections below the hero, which load after it. */
export const HOME_SECTIONS_NAMESPACE = defineNamespace({
  name: 'home-sections',
  en,
  load: (locale) =>
    locale === 'fr' ? import('./locales/sections/fr.json') : import('./locales/sections/ar.json'),
});
