// @ts-check
/**
 * The pages `npm run build` prerenders carry absolute addresses (canonical
 * and alternate links, share card, JSON-LD, sitemap.xml, robots.txt) of the
 * origin the build was given: SITE_URL, else CORS_ORIGIN, else
 * http://localhost:5173 (prerender.mjs). `npm start` runs the build it has,
 * on another port when that one is busy: `vite preview` then answers those
 * files with the origin it really serves (SITE_URL in its environment,
 * scripts/lib/stack.mjs), so no page sends visitors or crawlers to a server
 * that is not this one.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, sep } from 'node:path';

/** Beside the build's files, the origin they were written with (a dotfile: not served). */
export const BUILT_ORIGIN_FILE = '.site-origin';

/** The kinds of file whose text holds the site's addresses, and how they are served. */
const CONTENT_TYPES = /** @type {const} */ ({
  html: 'text/html; charset=utf-8',
  xml: 'application/xml; charset=utf-8',
  txt: 'text/plain; charset=utf-8',
});

/**
 * The built origin of `dist`, or null for a build made before it was recorded.
 * @param {string} dist
 * @returns {string | null}
 */
export function builtOriginOf(dist) {
  const file = join(dist, BUILT_ORIGIN_FILE);
  return existsSync(file) ? readFileSync(file, 'utf8').trim() || null : null;
}

/**
 * The file of `dist` that answers a request path, as `vite preview` finds it
 * (`/fr/` -> fr/index.html, `/services` -> services.html), with its content
 * type; null when it is no page, sitemap or robots file of the build, or
 * when the path leads outside `dist`.
 * @param {string} dist
 * @param {string} requestPath the path part of the request's address
 * @returns {{ file: string, contentType: string } | null}
 */
export function addressedFileOf(dist, requestPath) {
  let path;
  try {
    // Resolves `.` and `..` segments as a browser would, before decoding.
    path = decodeURIComponent(new URL(requestPath, 'http://site.invalid').pathname);
  } catch {
    return null;
  }
  if (path.includes('\0')) return null;
  const relative = path.endsWith('/')
    ? `${path}index.html`
    : /\.\w+$/.test(path)
      ? path
      : `${path}.html`;
  const extension = /** @type {keyof typeof CONTENT_TYPES} */ (relative.split('.').pop());
  const contentType = CONTENT_TYPES[extension];
  if (!contentType) return null;
  const file = join(dist, relative);
  if (!file.startsWith(`${dist}${sep}`) || !existsSync(file)) return null;
  return { file, contentType };
}

/**
 * The text with every address of the built origin moved to the served one.
 * @param {string} text @param {string} builtOrigin @param {string} servedOrigin
 */
export function withServedOrigin(text, builtOrigin, servedOrigin) {
  return text.split(builtOrigin).join(servedOrigin);
}
