import { defineNamespace } from '../../lib/translations';
import en from './locales/en.json';

export const PORTFOLIO_NAMESPACE = defineNamespace({
  name: 'portfolio',
  en,
  fr: () => import('./locales/fr.json'),
  ar: () => import('./locales/ar.json'),
});
