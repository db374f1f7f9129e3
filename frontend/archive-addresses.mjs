// @ts-check
/**
 * The public newsletter archive's addresses, which the API renders (its
 * content lives in the database, written after the build): `/newsletter`,
 * `/fr/newsletter`, `/ar/newsletter`, a campaign's page
 * `/<lang>/newsletter/<id>`, each language's Atom feed
 * `/<lang>/newsletter/feed.xml`, and the archive's sitemap
 * `/newsletter/sitemap.xml`. `vite dev` and `vite preview` forward them to
 * the API's `/api/archive/...` (vite.config.ts); nginx.conf does the same with
 * its own rewrites. `/newsletter/confirm` and `/newsletter/unsubscribe` stay
 * the SPA's: a campaign's id is 24 hexadecimal digits.
 */

const ARCHIVE_ADDRESS = /^\/(?:(fr|ar)\/)?newsletter(?:\/(feed\.xml|sitemap\.xml|[0-9a-f]{24}))?$/;

/**
 * The API path that answers a public archive address, or null for any other address.
 * @param {string} path the request's path, without its query
 * @returns {string | null}
 */
export function archiveApiPathOf(path) {
  const match = ARCHIVE_ADDRESS.exec(path);
  if (!match) return null;
  const [, language = 'en', rest] = match;
  if (rest === 'sitemap.xml') return language === 'en' ? '/api/archive/sitemap.xml' : null;
  if (rest === 'feed.xml') return `/api/archive/${language}/feed.xml`;
  return `/api/archive/${language}/pages${rest ? `/${rest}` : ''}`;
}
