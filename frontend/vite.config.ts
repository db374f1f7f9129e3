import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type ProxyOptions } from 'vite';

// Same-origin `/api` in every environment: dev and preview forward it to the API,
// so the SPA never needs to know where the backend lives (and cookies stay first-party).
const apiProxy: Record<string, ProxyOptions> = {
  '/api': { target: process.env.API_PROXY_TARGET ?? 'http://127.0.0.1:4000' },
};

// Vite reads the config through a default export.
export default defineConfig({
  plugins: [react()],
  resolve: {
    // Bundle the contracts from source: no build step between editing them and the browser.
    alias: {
      '@agency/contracts': fileURLToPath(new URL('../contracts/src/index.ts', import.meta.url)),
    },
  },
  server: { port: 5173, proxy: apiProxy },
  preview: { port: 4173, proxy: apiProxy },
  build: { outDir: 'dist', sourcemap: true },
});
