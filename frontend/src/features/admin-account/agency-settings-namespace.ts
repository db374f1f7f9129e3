import { defineNamespace } from '../../lib/translations';
import en from './locales/agency-settings/en.json';

/** The Settings card where admins set the agency's name, senders, mail texts and clock. */
export const AGENCY_SETTINGS_NAMESPACE = defineNamespace({
  name: 'admin-agency-settings',
  en,
  fr: () => import('./locales/agency-settings/fr.json'),
  ar: () => import('./locales/agency-settings/ar.json'),
});
