import type { i18n as I18n } from 'i18next';
import type * as I18nModule from './i18n';

/**
 * Spec 4: the stored preference wins, then the browser's languages, then
 * <html lang>; English when none of them is one of ours. On the public site
 * the address names the language (index.html's script chose it by that
 * order). Each case loads a fresh i18n instance, as a new page load would.
 */
async function detectWith({
  stored,
  browser,
  htmlLang,
  path = '/admin/login',
}: {
  stored?: string;
  browser: string[];
  htmlLang?: string;
  path?: string;
}): Promise<string | undefined> {
  window.history.replaceState(null, '', path);
  window.localStorage.clear();
  if (stored) window.localStorage.setItem('i18nextLng', stored);
  jest.spyOn(window.navigator, 'languages', 'get').mockReturnValue(browser);
  jest.spyOn(window.navigator, 'language', 'get').mockReturnValue(browser[0] ?? '');
  document.documentElement.lang = htmlLang ?? '';
  let instance: I18n | undefined;
  jest.isolateModules(() => {
    ({ i18n: instance } = jest.requireActual<typeof I18nModule>('./i18n'));
  });
  const i18n = instance;
  if (!i18n) throw new Error('i18n did not load');
  // French and Arabic texts load asynchronously; the language is settled once they have.
  if (!i18n.isInitialized) await new Promise((resolve) => i18n.on('initialized', resolve));
  return i18n.resolvedLanguage;
}

/** Back to the English home page, as each test found the document. */
function resetPage() {
  window.history.replaceState(null, '', '/');
  jest.restoreAllMocks();
  window.localStorage.clear();
  document.documentElement.lang = 'en';
  document.documentElement.dir = 'ltr';
}

describe('language detection order in the admin area', () => {
  afterEach(resetPage);

  it('uses the stored preference before the browser language', async () => {
    expect(await detectWith({ stored: 'fr', browser: ['ar-TN', 'en'] })).toBe('fr');
  });

  it('uses the browser language when nothing is stored', async () => {
    expect(await detectWith({ browser: ['ar-TN', 'fr'] })).toBe('ar');
  });

  it('skips browser languages the site does not have', async () => {
    expect(await detectWith({ browser: ['de-DE', 'fr-FR'] })).toBe('fr');
  });

  it('falls back to <html lang> when neither is usable', async () => {
    expect(await detectWith({ stored: 'xx', browser: ['de-DE'], htmlLang: 'ar' })).toBe('ar');
  });

  it('falls back to English when nothing matches', async () => {
    expect(await detectWith({ browser: ['de-DE'], htmlLang: 'it' })).toBe('en');
  });

  it('sets <html lang dir> from the detected language at start', async () => {
    await detectWith({ stored: 'ar', browser: ['en'] });
    expect(document.documentElement).toHaveAttribute('lang', 'ar');
    expect(document.documentElement).toHaveAttribute('dir', 'rtl');
  });
});

describe('the language of a public page', () => {
  afterEach(resetPage);

  it('is the one its address names, whatever is stored or preferred', async () => {
    expect(await detectWith({ path: '/fr/services', stored: 'ar', browser: ['ar'] })).toBe('fr');
    expect(await detectWith({ path: '/ar/', stored: 'fr', browser: ['fr'] })).toBe('ar');
    expect(document.documentElement).toHaveAttribute('dir', 'rtl');
  });

  it('is English at an address without a language', async () => {
    expect(await detectWith({ path: '/portfolio', stored: 'fr', browser: ['ar'] })).toBe('en');
    expect(await detectWith({ path: '/', stored: 'ar', browser: ['fr'] })).toBe('en');
  });
});
