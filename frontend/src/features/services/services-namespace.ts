import { defineNamespace } from '../../lib/translations';
import en from './locales/en.json';

export const SERVICES_NAMESPACE = defineNamespace({
  name: 'services',
  en,
  load: (locale) => import(`./locales/${locale}.json`),
});
