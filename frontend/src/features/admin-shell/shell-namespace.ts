import { defineNamespace } from '../../lib/translations';
import en from './locales/en.json';

/** The admin area's frame: navigation, header, user menu, session notices. */
export const SHELL_NAMESPACE = defineNamespace({
  name: 'admin-shell',
  en,
  fr: () => import('./locales/fr.json'),
  ar: () => import('./locales/ar.json'),
});
