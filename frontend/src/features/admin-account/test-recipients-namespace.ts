import { defineNamespace } from '../../lib/translations';
import en from './locales/test-recipients/en.json';

/** The Settings card where admins list whom test mail may go to. */
export const TEST_RECIPIENTS_NAMESPACE = defineNamespace({
  name: 'admin-test-recipients',
  en,
  fr: () => import('./locales/test-recipients/fr.json'),
  ar: () => import('./locales/test-recipients/ar.json'),
});
