import { LOCALES, type Locale } from '@agency/contracts';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { setImmediate as nodeSetImmediate } from 'node:timers';
import {
  buildSitemap,
  prerenderedPages,
  renderPage,
  type PrerenderedPage,
  type RenderedPage,
} from '../../entry-server';
import { SHARE_IMAGE } from './page-head';
import { isIndexable } from './site-pages';
import { sitemapAddresses } from './sitemap';

// React's Node renderer (what prerender.mjs runs) schedules its work with setImmediate,
// which jsdom's window leaves out.
globalThis.setImmediate ??= nodeSetImmediate;

const SITE = 'https://agency.example';
const PAGES = prerenderedPages();

/** Every page in every language, rendered once for the whole file (as prerender.mjs does). */
const rendered = new Map<string, RenderedPage>();
beforeAll(async () => {
  for (const entry of PAGES) rendered.set(entry.address, await renderPage(entry, SITE));
}, 120_000);

function headOf(entry: PrerenderedPage): Document {
  const page = rendered.get(entry.address);
  if (!page) throw new Error(`${entry.address} was not rendered`);
  return new DOMParser().parseFromString(`<html><head>${page.head}</head></html>`, 'text/html');
}
function bodyOf(entry: PrerenderedPage): Element {
  const page = rendered.get(entry.address);
  if (!page) throw new Error(`${entry.address} was not rendered`);
  return new DOMParser().parseFromString(`<div>${page.body}</div>`, 'text/html').body;
}
const content = (head: Document, selector: string) =>
  head.querySelector(selector)?.getAttribute('content') ?? null;

describe('the head of each prerendered page, in each language', () => {
  it.each(PAGES.map((entry) => [entry.address, entry] as const))(
    '%s has its title, description, share card and language',
    (_address, entry) => {
      const head = headOf(entry);
      const page = rendered.get(entry.address);
      expect(page?.lang).toBe(entry.locale);
      expect(page?.dir).toBe(entry.locale === 'ar' ? 'rtl' : 'ltr');
      const title = head.querySelector('title')?.textContent ?? '';
      const description = content(head, 'meta[name="description"]') ?? '';
      expect(title.length).toBeGreaterThan(10);
      expect(description.length).toBeGreaterThan(50);
      expect(content(head, 'meta[property="og:title"]')).toBe(title);
      expect(content(head, 'meta[property="og:description"]')).toBe(description);
      expect(content(head, 'meta[property="og:image"]')).toBe(`${SITE}${SHARE_IMAGE.path}`);
      expect(content(head, 'meta[property="og:image:width"]')).toBe('1200');
      expect(content(head, 'meta[property="og:image:height"]')).toBe('630');
      expect(content(head, 'meta[property="og:locale"]')).toMatch(new RegExp(`^${entry.locale}_`));
      expect(content(head, 'meta[name="twitter:card"]')).toBe('summary_large_image');
      expect(content(head, 'meta[name="twitter:image"]')).toBe(`${SITE}${SHARE_IMAGE.path}`);
      for (const element of head.head.children)
        expect(element.tagName === 'TITLE' || element.hasAttribute('data-head')).toBe(true);
    },
  );

  it('shares an image the site ships, 1200 by 630 pixels', () => {
    const png = readFileSync(join(__dirname, '..', '..', '..', 'public', SHARE_IMAGE.path));
    expect(png.subarray(1, 4).toString('ascii')).toBe('PNG');
    // The IHDR chunk opens the file: width, then height, as 32-bit big-endian numbers.
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([1200, 630]);
  });

  it('gives every page of a language its own title and description', () => {
    for (const locale of LOCALES) {
      const pages = PAGES.filter((entry) => entry.locale === locale && isIndexable(entry.page));
      const titles = pages.map((entry) => headOf(entry).querySelector('title')?.textContent);
      const descriptions = pages.map((entry) => content(headOf(entry), 'meta[name="description"]'));
      expect(new Set(titles).size).toBe(pages.length);
      expect(new Set(descriptions).size).toBe(pages.length);
    }
  });

  it('gives each language of a page a title of its own', () => {
    const home = PAGES.filter((entry) => entry.page.key === 'home');
    const titles = home.map((entry) => headOf(entry).querySelector('title')?.textContent);
    expect(new Set(titles).size).toBe(LOCALES.length);
  });

  it.each(
    PAGES.filter((entry) => entry.page.canonicalPath).map(
      (entry) => [entry.address, entry] as const,
    ),
  )(
    '%s names its canonical address and its alternates in en, fr, ar and x-default',
    (_address, entry) => {
      const head = headOf(entry);
      const canonicalPath = entry.page.canonicalPath ?? '';
      const inLanguage = (locale: Locale) =>
        `${SITE}${locale === 'en' ? '' : `/${locale}`}${canonicalPath}`;
      expect(head.querySelectorAll('link[rel="canonical"]')).toHaveLength(1);
      expect(head.querySelector('link[rel="canonical"]')?.getAttribute('href')).toBe(
        inLanguage(entry.locale),
      );
      expect(content(head, 'meta[property="og:url"]')).toBe(inLanguage(entry.locale));
      const alternates = Object.fromEntries(
        [...head.querySelectorAll('link[rel="alternate"]')].map((link) => [
          link.getAttribute('hreflang'),
          link.getAttribute('href'),
        ]),
      );
      expect(alternates).toEqual({
        en: inLanguage('en'),
        fr: inLanguage('fr'),
        ar: inLanguage('ar'),
        'x-default': inLanguage('en'),
      });
      expect(head.querySelector('meta[name="robots"]')).toBeNull();
    },
  );

  it("points the services link's address at /services, and keeps the thank-you page out of the index", () => {
    const byAddress = (address: string) => {
      const entry = PAGES.find((page) => page.address === address);
      if (!entry) throw new Error(address);
      return headOf(entry);
    };
    expect(
      byAddress('/fr/services-dedicated')
        .querySelector('link[rel="canonical"]')
        ?.getAttribute('href'),
    ).toBe(`${SITE}/fr/services`);
    for (const address of ['/thank-you', '/fr/thank-you', '/ar/thank-you']) {
      const head = byAddress(address);
      expect(content(head, 'meta[name="robots"]')).toBe('noindex');
      expect(head.querySelector('link[rel="canonical"]')).toBeNull();
    }
  });
});

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null;

/** The JSON-LD objects of a page's head, parsed. */
function structuredData(entry: PrerenderedPage): Json[] {
  return [...headOf(entry).querySelectorAll('script[type="application/ld+json"]')].map(
    (script) => JSON.parse(script.textContent ?? '') as Json,
  );
}

/**
 * The properties schema.org's types need to be read as such (and that
 * search engines require for their rich results): a missing or empty one fails.
 */
function expectProperties(object: unknown, type: string, properties: readonly string[]) {
  expect(isObject(object)).toBe(true);
  const data = object as Json;
  expect(data['@type']).toBe(type);
  for (const property of properties) {
    const value = data[property];
    expect([
      property,
      value === undefined || value === '' || (Array.isArray(value) && value.length === 0),
    ]).toEqual([property, false]);
  }
}

describe('the structured data (JSON-LD) of each page, in each language', () => {
  it.each(PAGES.map((entry) => [entry.address, entry] as const))('%s', (_address, entry) => {
    const data = structuredData(entry);
    const types = data.map((object) => object['@type']);
    if (!entry.page.canonicalPath) {
      expect(data).toEqual([]);
      return;
    }
    for (const object of data) expect(object['@context']).toBe('https://schema.org');

    const agency = data.find((object) => object['@type'] === 'ProfessionalService');
    expectProperties(agency, 'ProfessionalService', [
      'name',
      'description',
      'url',
      'image',
      'address',
      'telephone',
      'email',
      'openingHoursSpecification',
    ]);
    expectProperties(agency?.address, 'PostalAddress', ['addressLocality', 'addressCountry']);
    expect(agency?.email).toBe('contact@agency.example');
    expect(agency?.telephone).toBe('+48123456789');
    for (const hours of agency?.openingHoursSpecification as unknown[]) {
      expectProperties(hours, 'OpeningHoursSpecification', ['dayOfWeek', 'opens', 'closes']);
    }

    if (entry.page.key === 'home') {
      expect(types).toEqual(['ProfessionalService', 'FAQPage']);
      const faq = data[1];
      expectProperties(faq, 'FAQPage', ['mainEntity']);
      const questions = faq?.mainEntity as unknown[];
      expect(questions).toHaveLength(5);
      const body = bodyOf(entry).textContent ?? '';
      for (const question of questions) {
        expectProperties(question, 'Question', ['name', 'acceptedAnswer']);
        const answer = (question as Json).acceptedAnswer;
        expectProperties(answer, 'Answer', ['text']);
        // The FAQ it describes is on the page, word for word.
        expect(body).toContain((question as Json).name);
        expect(body).toContain((answer as Json).text);
      }
    } else {
      expect(types).toEqual(['ProfessionalService', 'BreadcrumbList']);
      const trail = data[1];
      expectProperties(trail, 'BreadcrumbList', ['itemListElement']);
      const items = trail?.itemListElement as Json[];
      expect(items).toHaveLength(2);
      items.forEach((item, index) => {
        expectProperties(item, 'ListItem', ['position', 'name', 'item']);
        expect(item.position).toBe(index + 1);
        expect(String(item.item)).toMatch(/^https:\/\//);
      });
      expect(items[1]?.item).toBe(
        headOf(entry).querySelector('link[rel="canonical"]')?.getAttribute('href'),
      );
    }
  });
});

describe('the sitemap', () => {
  it('lists exactly the prerendered pages that are their own canonical page, in every language, with their alternates', () => {
    const xml = new DOMParser().parseFromString(buildSitemap(SITE), 'application/xml');
    const listed = [...xml.getElementsByTagName('loc')].map((loc) => loc.textContent);
    const canonical = PAGES.map((entry) =>
      headOf(entry).querySelector('link[rel="canonical"]')?.getAttribute('href'),
    );
    const selfCanonical = PAGES.filter(
      (entry, index) => canonical[index] === `${SITE}${entry.address}`,
    ).map((entry) => `${SITE}${entry.address}`);

    expect([...listed].sort()).toEqual([...selfCanonical].sort());
    expect(listed).toEqual(sitemapAddresses(SITE));
    expect(listed).toHaveLength(5 * LOCALES.length);
    // Every other prerendered page points at a listed one, or asks not to be indexed.
    PAGES.forEach((entry, index) => {
      const href = canonical[index];
      if (href) expect(listed).toContain(href);
      else expect(content(headOf(entry), 'meta[name="robots"]')).toBe('noindex');
    });
    for (const url of xml.getElementsByTagName('url')) {
      const alternates = [...url.getElementsByTagName('xhtml:link')].map((link) =>
        link.getAttribute('hreflang'),
      );
      expect(alternates).toEqual(['en', 'fr', 'ar', 'x-default']);
    }
  });
});

/** Every string of every catalogue of `locale` under src/. */
function catalogueStrings(locale: Locale): Set<string> {
  const strings = new Set<string>();
  const collect = (value: unknown) => {
    if (typeof value === 'string') strings.add(value);
    else if (isObject(value)) Object.values(value).forEach(collect);
  };
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name === `${locale}.json` && dir.includes('locales')) {
        collect(JSON.parse(readFileSync(path, 'utf8')));
      }
    }
  };
  walk(join(__dirname, '..', '..'));
  return strings;
}

describe('the copy of the English and Arabic pages', () => {
  const french = catalogueStrings('fr');
  const elsewhere = new Set([...catalogueStrings('en'), ...catalogueStrings('ar')]);
  // Strings only the French catalogues hold (names shared by every language, such as
  // "Pack Performance", are in the others too), without their placeholders.
  const frenchOnly = [...french]
    .filter((text) => !elsewhere.has(text))
    .flatMap((text) => text.split(/\{\{[^}]+\}\}/))
    .map((text) => text.trim())
    .filter((text) => text.length >= 12);

  it('has French strings to look for', () => {
    expect(frenchOnly).toEqual(
      expect.arrayContaining(
        [
          'Pour les petites entreprises qui veulent une présence régulière en ligne.',
          'Publicité ciblée pilotée',
          'Gérant de restaurant',
          'Devis sur mesure',
        ].filter((text) => french.has(text)),
      ),
    );
    expect(frenchOnly.length).toBeGreaterThan(100);
  });

  it.each(
    PAGES.filter((entry) => entry.locale !== 'fr').map((entry) => [entry.address, entry] as const),
  )('%s holds no string that only the French catalogues have', (_address, entry) => {
    const body = bodyOf(entry);
    const head = headOf(entry);
    const texts = [
      body.textContent ?? '',
      head.title,
      ...[...body.querySelectorAll('*'), ...head.querySelectorAll('*')].flatMap((element) =>
        [...element.attributes].map((attribute) => attribute.value),
      ),
    ].join('\n');
    expect(frenchOnly.filter((text) => texts.includes(text))).toEqual([]);
  });

  it('would catch a French string on an English page', () => {
    const page = rendered.get('/fr/');
    expect(page).toBeDefined();
    const text =
      new DOMParser().parseFromString(`<div>${page?.body}</div>`, 'text/html').body.textContent ??
      '';
    expect(frenchOnly.filter((french) => text.includes(french)).length).toBeGreaterThan(50);
  });
});
