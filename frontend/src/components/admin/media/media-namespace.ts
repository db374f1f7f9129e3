import { defineNamespace } from '../../../lib/translations';
import en from './locales/en.json';

/**
 * The media library's words: its screen, the upload zone and the image
 * picker that the campaign and template editors share.
 */
export const MEDIA_NAMESPACE = defineNamespace({
  name: 'admin-media',
  en,
  fr: () => import('./locales/fr.json'),
  ar: () => import('./locales/ar.json'),
});
