import { DEFAULT_LOCALE, LOCALES, directionOf } from '@agency/contracts';
import i18next from 'i18next';
import LanguageDetector from 'i18next-browser-languagedetector';
import resourcesToBackend from 'i18next-resources-to-backend';
import { initReactI18next } from 'react-i18next';
import { toLocale } from '../lib/locale';
import { siteLocaleOf } from '../lib/site-locale';
import { STORAGE_KEYS } from '../lib/storage';
import { defineNamespace, readCatalogue } from '../lib/translations';
import { loadRtlCache } from './emotion-caches';
import en from '../locales/en.json';

/**
 * The app shell's own texts (navigation, footer, 404...). Features declare
 * their namespaces beside their components (see frontend/README.md).
 */
export const SHELL_NAMESPACE = defineNamespace({
  name: 'translation',
  en,
  fr: () => import('../locales/fr.json'),
  ar: () => import('../locales/ar.json'),
});

/** Keeps `<html lang dir>` in step with the language so Arabic reads right to left. */
function applyDocumentLanguage(language: string): void {
  // The build-time prerender (entry-server.tsx) has no document.
  if (typeof document === 'undefined') return;
  const locale = toLocale(language);
  document.documentElement.lang = locale;
  document.documentElement.dir = directionOf(locale);
}

export const i18n = i18next.createInstance();

/**
 * A public page's address names its language (lib/site-locale.ts), whatever
 * the visitor stored or their browser prefers: the prerendered page they were
 * sent is in that language. The admin area has no language in its address.
 */
const detector = new LanguageDetector();
detector.addDetector({
  name: 'siteAddress',
  lookup: () =>
    typeof window === 'undefined'
      ? undefined
      : (siteLocaleOf(window.location.pathname) ?? undefined),
});

// Registered before init so the detected language is applied on the first paint too.
i18n.on('languageChanged', applyDocumentLanguage);
// Fetched while the Arabic texts load, so the switch to right-to-left does not wait for it.
i18n.on('languageChanging', (language: string) => {
  if (directionOf(toLocale(language)) === 'rtl') void loadRtlCache();
});

void i18n
  .use(detector)
  .use(initReactI18next)
  .use(resourcesToBackend(readCatalogue))
  .init({
    // English is bundled (it is every namespace's fallback); French and Arabic
    // catalogues are fetched from the backend when a visitor uses them.
    resources: { [DEFAULT_LOCALE]: { [SHELL_NAMESPACE.name]: SHELL_NAMESPACE.en } },
    partialBundledLanguages: true,
    ns: [SHELL_NAMESPACE.name],
    defaultNS: SHELL_NAMESPACE.name,
    fallbackLng: DEFAULT_LOCALE,
    supportedLngs: [...LOCALES],
    load: 'languageOnly',
    // With English bundled, an English visitor's first render needs no wait.
    initAsync: false,
    interpolation: { escapeValue: false },
    detection: {
      // Spec 4: stored preference, then the browser's languages, then <html lang>;
      // on the public site the address has already been chosen by that order
      // (index.html's inline script sends `/` on to the language's own address).
      order: ['siteAddress', 'localStorage', 'navigator', 'htmlTag'],
      lookupLocalStorage: STORAGE_KEYS.language,
      // Only a language the visitor picks is stored (see LanguageSelector), so a
      // browser language is never frozen into a "preference" nobody chose.
      caches: [],
    },
  });
