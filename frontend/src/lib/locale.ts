import { DEFAULT_LOCALE, isLocale, type Locale } from '@agency/contracts';
import { useTranslation } from 'react-i18next';

/** i18next may report a regional code or nothing before init; the app only knows en/fr/ar. */
export function toLocale(language: string | undefined): Locale {
  if (isLocale(language)) return language;
  const base = language?.split('-')[0];
  return isLocale(base) ? base : DEFAULT_LOCALE;
}

/** The visitor's current language, re-rendering the caller when it changes. */
export function useLocale(): Locale {
  const { i18n } = useTranslation();
  return toLocale(i18n.resolvedLanguage ?? i18n.language);
}
