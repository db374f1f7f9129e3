import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import compression from 'compression';
import { visualizer } from 'rollup-plugin-visualizer';
import { defineConfig, type Connect, type Plugin, type ProxyOptions } from 'vite';

// Same-origin `/api` in every environment: dev and preview forward it to the API,
// so the SPA never needs to know where the backend lives (and cookies stay first-party).
const apiProxy: Record<string, ProxyOptions> = {
  '/api': { target: process.env.API_PROXY_TARGET ?? 'http://127.0.0.1:4000' },
};

/**
 * `vite preview` (what `npm start` serves) compresses its responses the way
 * nginx does in compose, so the site is measured and used as deployed.
 * API responses pass through the proxy untouched.
 */
function compressPreviewResponses(): Plugin {
  const gzip = compression({
    filter: (request, response) =>
      !request.url?.startsWith('/api/') && compression.filter(request, response),
  });
  return {
    name: 'agency:compress-preview',
    configurePreviewServer(server) {
      // connect's types predate express 5's request type; at run time this is connect middleware.
      server.middlewares.use(gzip as unknown as Connect.NextHandleFunction);
    },
  };
}

// `ANALYZE=1 npm run build -w frontend` writes dist/stats.html: what each chunk holds.
const analyze = process.env.ANALYZE === '1';

// Vite reads the config through a default export.
export default defineConfig({
  plugins: [
    react(),
    compressPreviewResponses(),
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
  server: { port: 5173, proxy: apiProxy },
  preview: { port: 4173, proxy: apiProxy },
  build: {
    outDir: 'dist',
    sourcemap: true,
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
