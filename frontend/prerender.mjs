// @ts-check
/**
 * Last step of `npm run build`: renders every public page in every language
 * to HTML (`/` -> dist/home.html, `/fr/` -> dist/fr/index.html,
 * `/ar/services` -> dist/ar/services.html...), with its own head (title,
 * description, canonical and alternate addresses, share card, JSON-LD), so a
 * visitor or a search engine reads it before any script has run. The browser
 * then hydrates it (src/main.tsx). Also writes dist/sitemap.xml and
 * dist/robots.txt. Runs the server bundle that
 * `vite build --ssr src/entry-server.tsx --outDir dist-ssr` wrote, then deletes it.
 *
 * Addresses are written with the site's public origin: SITE_URL, else
 * CORS_ORIGIN (the website's address the API allows), else the address
 * `npm start` serves. When `npm start` finds that port taken, `vite preview`
 * serves them with the address it took instead (site-origin.mjs).
 *
 * dist/index.html stays the empty shell every other address falls back to
 * (admin, 404, /services/<slug>, the newsletter pages); `/` is served from
 * dist/home.html (vite.config.ts for `vite preview`, nginx.conf in compose).
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BUILT_ORIGIN_FILE } from './site-origin.mjs';

const dist = fileURLToPath(new URL('./dist/', import.meta.url));
const serverBundle = new URL('./dist-ssr/entry-server.js', import.meta.url);
const ROOT = '<div id="root"></div>';
const HTML_TAG = '<html lang="en" dir="ltr">';
// The shell's own title and description, which a page's head replaces.
const SHELL_HEAD = /<meta\s+name="description"[^>]*>\s*([\s\S]*?)<title>[^<]*<\/title>/;

const siteUrl = process.env.SITE_URL || process.env.CORS_ORIGIN || 'http://localhost:5173';

/**
 * The HTML with the font preloads of the other direction left out: the shell
 * carries one per direction (vite.config.ts), a page needs its own only.
 * @param {string} html @param {string} dir
 */
function withFirstPaintFontOf(html, dir) {
  return html.replace(/\n\s*<link rel="preload"[^>]*data-first-paint="(\w+)"[^>]*>/g, (link, of) =>
    of === dir ? link : '',
  );
}

const template = readFileSync(`${dist}index.html`, 'utf8');
for (const part of [ROOT, HTML_TAG, 'data-first-paint="ltr"', 'data-first-paint="rtl"']) {
  if (!template.includes(part)) throw new Error(`dist/index.html has no ${part} to fill`);
}
if (!SHELL_HEAD.test(template)) throw new Error('dist/index.html has no description and title');

/** @type {import('./src/entry-server')} */
const server = await import(serverBundle.href);

for (const entry of server.prerenderedPages()) {
  const { body, head, lang, dir } = await server.renderPage(entry, siteUrl);
  const page = withFirstPaintFontOf(template, dir)
    .replace(
      HTML_TAG,
      `<html lang="${lang}" dir="${dir}" ${server.HEAD_ADDRESS_ATTRIBUTE}="${entry.address}">`,
    )
    .replace(SHELL_HEAD, (_match, between) => `${between}${head}`)
    .replace(ROOT, `<div id="root" data-prerendered="${entry.address}">${body}</div>`);
  const file = `${dist}${entry.file}`;
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, page);
  process.stdout.write(
    `prerendered ${entry.address} -> dist/${entry.file} (${(page.length / 1024).toFixed(1)} kB)\n`,
  );
}

// The shell serves the English-first pages that are not prerendered (admin, 404...).
writeFileSync(`${dist}index.html`, withFirstPaintFontOf(template, 'ltr'));
writeFileSync(`${dist}sitemap.xml`, server.buildSitemap(siteUrl));
writeFileSync(`${dist}robots.txt`, server.buildRobots(siteUrl));
// `vite preview` reads it to serve these addresses from the origin it really
// listens on when that is not this one (site-origin.mjs).
writeFileSync(`${dist}${BUILT_ORIGIN_FILE}`, siteUrl.replace(/\/+$/, ''));
process.stdout.write(`wrote dist/sitemap.xml and dist/robots.txt for ${siteUrl}\n`);
rmSync(fileURLToPath(new URL('./dist-ssr/', import.meta.url)), { recursive: true, force: true });
