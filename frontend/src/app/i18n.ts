import { DEFAULT_LOCALE, LOCALES, VALIDATION_MESSAGES, directionOf } from '@agency/contracts';
import i18next from 'i18next';
import LanguageDetector from 'i18next-browser-languagedetector';
import { initReactI18next } from 'react-i18next';
import { toLocale } from '../lib/locale';
import { STORAGE_KEYS } from '../lib/storage';
import ar from '../locales/ar.json';
import en from '../locales/en.json';
import fr from '../locales/fr.json';

/**
 * Validation messages come from the contracts catalogue (the API answers from the
 * same one), so the schema's message keys render in the visitor's language.
 */
const resources = {
  en: { translation: en, validation: VALIDATION_MESSAGES.en },
  fr: { translation: fr, validation: VALIDATION_MESSAGES.fr },
  ar: { translation: ar, validation: VALIDATION_MESSAGES.ar },
};

/** Keeps `<html lang dir>` in step with the language so Arabic reads right to left. */
function applyDocumentLanguage(language: string): void {
  const locale = toLocale(language);
  document.documentElement.lang = locale;
  document.documentElement.dir = directionOf(locale);
}

export const i18n = i18next.createInstance();

// Registered before init so the detected language is applied on the first paint too.
i18n.on('languageChanged', applyDocumentLanguage);

void i18n
  .use(LanguageDetector)
  .use(initReactI18next)
  .init({
    resources,
    ns: ['translation', 'validation'],
    defaultNS: 'translation',
    fallbackLng: DEFAULT_LOCALE,
    supportedLngs: [...LOCALES],
    load: 'languageOnly',
    // Resources are bundled, so init can finish synchronously: no flash of raw keys.
    initAsync: false,
    interpolation: { escapeValue: false },
    detection: {
      order: ['localStorage', 'navigator', 'htmlTag'],
      lookupLocalStorage: STORAGE_KEYS.language,
      caches: ['localStorage'],
    },
  });
