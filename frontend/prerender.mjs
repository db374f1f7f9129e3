// @ts-check
/**
 * Last step of `npm run build`: renders the public pages to HTML (English,
 * the default language) so a visitor sees them before any script has run.
 * The browser then hydrates them (src/main.tsx). Runs the server bundle that
 * `vite build --ssr src/entry-server.tsx --outDir dist-ssr` wrote, then deletes it.
 *
 * dist/index.html stays the empty shell every other address falls back to
 * (admin, 404, /services/<slug>, and /contact, whose form needs the API client
 * before it can render); `/` is served from dist/home.html
 * (vite.config.ts for `vite preview`, nginx.conf in compose).
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Address -> file in dist/. */
export const PRERENDERED_PAGES = {
  '/': 'home.html',
  '/services': 'services.html',
  '/services-dedicated': 'services-dedicated.html',
  '/portfolio': 'portfolio.html',
  '/thank-you': 'thank-you.html',
};

const dist = fileURLToPath(new URL('./dist/', import.meta.url));
const serverBundle = new URL('./dist-ssr/entry-server.js', import.meta.url);
const ROOT = '<div id="root"></div>';

const template = readFileSync(`${dist}index.html`, 'utf8');
if (!template.includes(ROOT)) throw new Error(`dist/index.html has no ${ROOT} to fill`);
/** @type {{ renderPage: (url: string) => Promise<string> }} */
const { renderPage } = await import(serverBundle.href);

for (const [path, file] of Object.entries(PRERENDERED_PAGES)) {
  const html = await renderPage(path);
  const page = template.replace(ROOT, `<div id="root" data-prerendered="${path}">${html}</div>`);
  writeFileSync(`${dist}${file}`, page);
  process.stdout.write(
    `prerendered ${path} -> dist/${file} (${(page.length / 1024).toFixed(1)} kB)\n`,
  );
}
rmSync(fileURLToPath(new URL('./dist-ssr/', import.meta.url)), { recursive: true, force: true });
