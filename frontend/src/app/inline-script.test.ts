import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const frontendDir = join(__dirname, '..', '..');

function inlineScripts(): string[] {
  const html = readFileSync(join(frontendDir, 'index.html'), 'utf8');
  return [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((match) => match[1] ?? '');
}

interface Visit {
  path: string;
  search?: string;
  hash?: string;
  stored?: string | null;
  browser?: string[];
  storageThrows?: boolean;
}

/**
 * Runs the script as the browser would on a page at `path`, with the given
 * stored choice and browser languages; returns where it sent the visitor
 * (null: it stayed) and whether the page was hidden meanwhile.
 */
function visit({
  path,
  search = '',
  hash = '',
  stored = null,
  browser = ['en-US'],
  storageThrows = false,
}: Visit) {
  const replaced: string[] = [];
  const attributes = new Map<string, string>();
  const location = { pathname: path, search, hash, replace: (url: string) => replaced.push(url) };
  const localStorage = {
    getItem: (key: string) => {
      if (storageThrows) throw new Error('SecurityError');
      return key === 'i18nextLng' ? stored : null;
    },
  };
  const document = {
    documentElement: { setAttribute: (name: string, value: string) => attributes.set(name, value) },
  };
  const run = new Function(
    'location',
    'localStorage',
    'navigator',
    'document',
    inlineScripts()[0] ?? '',
  );
  run(location, localStorage, { languages: browser }, document);
  expect(replaced.length).toBeLessThanOrEqual(1);
  return { to: replaced[0] ?? null, hidden: attributes.has('data-redirecting') };
}

describe('the address the inline script picks', () => {
  it('sends `/` to the stored choice, hidden until it is there, keeping query and anchor', () => {
    expect(
      visit({ path: '/', search: '?x=1', hash: '#faq', stored: 'fr', browser: ['ar'] }),
    ).toEqual({ to: '/fr/?x=1#faq', hidden: true });
  });

  it('keeps `/` in English when English is the stored choice, whatever the browser says', () => {
    expect(visit({ path: '/', stored: 'en', browser: ['ar-TN', 'fr'] })).toEqual({
      to: null,
      hidden: false,
    });
  });

  it("uses the first of the browser's languages the site has when nothing is stored", () => {
    expect(visit({ path: '/', browser: ['de-DE', 'ar-TN', 'fr'] }).to).toBe('/ar/');
    expect(visit({ path: '/', browser: ['de-DE', 'en-GB', 'fr'] }).to).toBeNull();
    expect(visit({ path: '/', browser: ['de-DE'] }).to).toBeNull();
  });

  it('falls back to the browser language when storage is out of reach', () => {
    expect(visit({ path: '/', storageThrows: true, browser: ['fr-FR'] }).to).toBe('/fr/');
  });

  it('leaves every other address alone: the address names its language', () => {
    expect(visit({ path: '/services', stored: 'fr', browser: ['fr'] }).to).toBeNull();
    expect(visit({ path: '/fr/', stored: 'ar', browser: ['ar'] }).to).toBeNull();
    expect(visit({ path: '/admin/login', stored: 'fr' }).to).toBeNull();
  });

  it("opens a newsletter mail's link in the language it names", () => {
    expect(
      visit({ path: '/newsletter/confirm', search: '?token=a.b&lang=ar', stored: 'fr' }).to,
    ).toBe('/ar/newsletter/confirm?token=a.b&lang=ar');
    expect(visit({ path: '/newsletter/unsubscribe', search: '?token=a&lang=en' }).to).toBeNull();
    expect(visit({ path: '/newsletter/confirm', search: '?token=a', stored: 'fr' }).to).toBeNull();
  });
});
