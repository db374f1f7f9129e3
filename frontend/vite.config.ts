import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { TLSSocket } from 'node:tls';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { visualizer } from 'rollup-plugin-visualizer';
import {
  defineConfig,
  type Connect,
  type IndexHtmlTransformContext,
  type Plugin,
  type ProxyOptions,
} from 'vite';
import { archiveApiPathOf } from './archive-addresses.mjs';
import { builtScriptHashes, securityHeaders } from './security-headers.mjs';
import { addressedFileOf, builtOriginOf, withServedOrigin } from './site-origin.mjs';

// Same-origin `/api` in every environment: dev and preview forward it to the API,
// so the SPA never needs to know where the backend lives (and cookies stay first-party).
const apiProxy: Record<string, ProxyOptions> = {
  '/api': { target: process.env.API_PROXY_TARGET ?? 'http://127.0.0.1:4000' },
};

/**
 * Tells the API who the visitor is: X-Forwarded-For becomes the address this
 * server sees, replacing whatever the visitor sent, as nginx does in compose.
 * The API believes it from this server alone (TRUST_PROXY, set by
 * scripts/lib/app-env.mjs), so each visitor has their own per-address limits
 * instead of all sharing this server's 127.0.0.1. Runs before the proxy,
 * which copies the request's headers, on every request: the proxy takes any
 * path that starts with /api, not only /api/.
 */
function forwardVisitorAddress(): Plugin {
  const replaceForwardedHeaders: Connect.NextHandleFunction = (request, _response, next) => {
    const { socket } = request;
    request.headers['x-forwarded-for'] = socket.remoteAddress ?? '';
    request.headers['x-forwarded-proto'] = socket instanceof TLSSocket ? 'https' : 'http';
    delete request.headers['x-forwarded-host'];
    next();
  };
  return {
    name: 'agency:forward-visitor-address',
    configureServer(server) {
      server.middlewares.use(replaceForwardedHeaders);
    },
    configurePreviewServer(server) {
      server.middlewares.use(replaceForwardedHeaders);
    },
  };
}

/**
 * The newsletter archive's public addresses become the API's archive paths
 * before anything else runs, so the `/api` proxy forwards them and the
 * answer keeps the API's own headers, as nginx does in compose.
 */
function forwardArchiveAddresses(): Plugin {
  const rewrite: Connect.NextHandleFunction = (request, _response, next) => {
    const [path = '', query] = (request.url ?? '').split('?');
    const apiPath = archiveApiPathOf(path);
    if (apiPath) request.url = query === undefined ? apiPath : `${apiPath}?${query}`;
    next();
  };
  return {
    name: 'agency:forward-archive-addresses',
    configureServer(server) {
      server.middlewares.use(rewrite);
    },
    configurePreviewServer(server) {
      server.middlewares.use(rewrite);
    },
  };
}

/** The languages whose pages live below their code (src/lib/site-locale.ts). */
const LOCALE_HOME = /^\/(fr|ar)$/;

/**
 * `vite preview` (what `npm start` serves) answers `/` with the prerendered
 * home page, as nginx does in compose, and sends `/fr` on to `/fr/`, the
 * address the French home page is published at (dist/fr/index.html; Vite
 * finds `/fr/services` in dist/fr/services.html itself). index.html stays the
 * empty shell that every other client-side route falls back to. (Vite's
 * preview server already gzips its responses, like nginx.)
 */
function servePrerenderedPages(): Plugin {
  return {
    name: 'agency:serve-prerendered-pages',
    configurePreviewServer(server) {
      server.middlewares.use((request, response, next) => {
        const [path = '', query] = (request.url ?? '').split('?');
        const search = query === undefined ? '' : `?${query}`;
        if (path === '/' || path === '/index.html') {
          request.url = `/home.html${search}`;
        } else if (LOCALE_HOME.test(path)) {
          response.writeHead(301, { Location: `${path}/${search}` });
          response.end();
          return;
        }
        next();
      });
    },
  };
}

/**
 * `vite preview` sends the site's security headers (security-headers.mjs,
 * the same as nginx in compose) with every page and file. The inline
 * scripts' hashes are read from the build it serves. The API's answers,
 * proxied under /api, keep the API's own headers.
 */
function sendSecurityHeaders(): Plugin {
  return {
    name: 'agency:security-headers',
    configurePreviewServer(server) {
      const headers = securityHeaders({
        scriptHashes: builtScriptHashes(resolve(server.config.root, server.config.build.outDir)),
      });
      server.middlewares.use((request, response, next) => {
        if (!(request.url ?? '').startsWith('/api/')) {
          for (const [name, value] of Object.entries(headers)) response.setHeader(name, value);
        }
        next();
      });
    },
  };
}

/**
 * `npm start` may find the build's port taken and serve it on another: the
 * prerendered pages, sitemap.xml and robots.txt are then answered with the
 * origin this server really has (SITE_URL, set by scripts/lib/stack.mjs)
 * instead of the one the build wrote (site-origin.mjs). Runs after the
 * security headers are set, since it answers the request itself.
 */
function serveWithServedOrigin(): Plugin {
  return {
    name: 'agency:serve-with-served-origin',
    configurePreviewServer(server) {
      const dist = resolve(server.config.root, server.config.build.outDir);
      const built = builtOriginOf(dist);
      const served = process.env.SITE_URL?.replace(/\/+$/, '');
      if (!built || !served || built === served) return;
      server.middlewares.use((request, response, next) => {
        if (request.method !== 'GET' && request.method !== 'HEAD') return next();
        const [path = ''] = (request.url ?? '').split('?');
        const found = path.startsWith('/api/') ? null : addressedFileOf(dist, path);
        if (!found) return next();
        const body = Buffer.from(withServedOrigin(readFileSync(found.file, 'utf8'), built, served));
        response.setHeader('Content-Type', found.contentType);
        response.setHeader('Content-Length', body.length);
        response.end(request.method === 'HEAD' ? undefined : body);
      });
    },
  };
}

/**
 * The faces each direction's first paint needs: Inter's Latin for English and
 * French; Cairo's Arabic and Latin for Arabic (theme.ts: its digits and Latin
 * names are Cairo's too). The shell preloads them all, marked with their
 * direction; prerender.mjs keeps each page's own.
 */
const FIRST_PAINT_FONTS = [
  { dir: 'ltr', file: /inter-latin-wght-normal-[\w-]+\.woff2$/ },
  { dir: 'rtl', file: /cairo-arabic-wght-normal-[\w-]+\.woff2$/ },
  { dir: 'rtl', file: /cairo-latin-wght-normal-[\w-]+\.woff2$/ },
] as const;

/**
 * Saves the prerendered pages a round trip before their first paint: the
 * stylesheet (only @font-face rules; MUI's styles come with the HTML) is
 * inlined, and the page's font is preloaded so text does not reflow when it arrives.
 */
function inlineFirstPaintAssets(): Plugin {
  return {
    name: 'agency:inline-first-paint-assets',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html: string, { bundle }: IndexHtmlTransformContext) {
        if (!bundle) return html;
        let page = html;
        for (const output of Object.values(bundle)) {
          if (output.type !== 'asset') continue;
          if (output.fileName.endsWith('.css')) {
            const link = new RegExp(`<link rel="stylesheet"[^>]*href="/${output.fileName}"[^>]*>`);
            page = page.replace(link, `<style>${String(output.source)}</style>`);
          } else {
            const font = FIRST_PAINT_FONTS.find(({ file }) => file.test(output.fileName));
            if (!font) continue;
            page = page.replace(
              '</title>',
              `</title>\n    <link rel="preload" href="/${output.fileName}" as="font" type="font/woff2" crossorigin data-first-paint="${font.dir}">`,
            );
          }
        }
        return page;
      },
    },
  };
}

// `ANALYZE=1 npm run build -w frontend` writes dist/stats.html: what each chunk holds.
const analyze = process.env.ANALYZE === '1';

// Vite reads the config through a default export.
export default defineConfig({
  plugins: [
    react(),
    forwardArchiveAddresses(),
    forwardVisitorAddress(),
    servePrerenderedPages(),
    sendSecurityHeaders(),
    serveWithServedOrigin(),
    inlineFirstPaintAssets(),
    ...(analyze
      ? [visualizer({ filename: 'dist/stats.html', gzipSize: true, template: 'treemap' })]
      : []),
  ],
  resolve: {
    // Bundle the contracts from source: no build step between editing them and the browser.
    alias: {
      '@agency/contracts': fileURLToPath(new URL('../contracts/src/index.ts', import.meta.url)),
    },
  },
  // The prerender bundle (src/entry-server.tsx) carries its dependencies: it runs once, in Node.
  ssr: { noExternal: true },
  server: { port: 5173, proxy: apiProxy },
  preview: { port: 4173, proxy: apiProxy },
  build: {
    outDir: 'dist',
    // Maps are written for whoever debugs a build, but the shipped files do not
    // name them: every visitor would download that comment in each chunk, about
    // 0.6 KB gzipped over the first load's 18 files.
    sourcemap: 'hidden',
    modulePreload: {
      // No modulepreload links in the HTML: the entry's chunks are requested
      // once the entry is parsed, after the prerendered page has painted, so
      // they do not share the first bytes' bandwidth with the page and its font.
      // Lazy sections keep their preloads (those are what hides a waterfall).
      resolveDependencies: (_file, deps, { hostType }) => (hostType === 'html' ? [] : deps),
    },
    rolldownOptions: {
      treeshake: {
        // The contracts are side-effect free (schemas and constants), but bundled from
        // source they carry no package.json flag saying so: without this, importing
        // one constant from their entry would ship every yup schema with the first load.
        moduleSideEffects: [{ test: /\/contracts\/src\//, sideEffects: false }],
      },
    },
  },
});
