import { DEFAULT_LOCALE, type Locale } from '@agency/contracts';
import { useTranslation } from 'react-i18next';

/** A translation catalogue: nested keys ending in strings. */
export interface Catalogue {
  [key: string]: string | Catalogue;
}

// English, the default language, ships with the code; these are fetched.
type OtherLocale = Exclude<Locale, 'en'>;

/**
 * One i18next namespace, owned by the code that uses it. English ships with
 * that code (it is also every language's fallback, so it is always needed);
 * the other languages are fetched only when a visitor picks one.
 */
export type Namespace = {
  name: string;
  en: Catalogue;
} & {
  /** One `import()` per language, so each language is its own chunk, fetched when first needed. */
  [locale in OtherLocale]: () => Promise<{ default: Catalogue }>;
};

const namespaces = new Map<string, Namespace>();

/** Declares a namespace; call it at module level beside the catalogues it points to. */
export function defineNamespace(namespace: Namespace): Namespace {
  namespaces.set(namespace.name, namespace);
  return namespace;
}

function isOtherLocale(language: string): language is OtherLocale {
  return language === 'fr' || language === 'ar';
}

/** The i18next backend's reader: the bundled English or a lazily imported catalogue. */
export async function readCatalogue(language: string, name: string): Promise<Catalogue> {
  const namespace = namespaces.get(name);
  if (!namespace) throw new Error(`Unknown translation namespace "${name}"`);
  if (language === DEFAULT_LOCALE) return namespace.en;
  if (!isOtherLocale(language)) throw new Error(`No "${language}" catalogue for "${name}"`);
  const catalogue = await namespace[language]();
  return catalogue.default;
}

/**
 * `useTranslation` for a feature's namespace. English is registered on first
 * use, so English pages render at once; another language suspends the caller
 * until its catalogue has arrived (the router's Suspense shows a loader).
 */
export function useNamespace(namespace: Namespace) {
  const { i18n } = useTranslation();
  if (!i18n.hasResourceBundle(DEFAULT_LOCALE, namespace.name)) {
    i18n.addResourceBundle(DEFAULT_LOCALE, namespace.name, namespace.en);
  }
  return useTranslation(namespace.name);
}
