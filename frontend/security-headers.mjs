// @ts-check
/**
 * The website's security headers, defined once. `vite preview` (what
 * `npm start` serves) sends them (vite.config.ts), and compose's nginx
 * includes the file this module prints when the image is built
 * (frontend/Dockerfile, nginx.conf): the same policy in every mode.
 *
 * Inline scripts run only by their SHA-256 hash. The hashes are read from
 * the built pages themselves (`inlineScriptHashes`), so a script added to
 * index.html or to the prerendered pages' head is allowed without editing
 * this file; `extraScriptHashes` takes any other.
 *
 *   node frontend/security-headers.mjs nginx frontend/dist   # nginx add_header lines
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The stock-photo host of the testimonial portraits. */
export const STOCK_PHOTO_ORIGIN = 'https://images.unsplash.com';

/** Script types a browser runs; JSON-LD and other data blocks are not scripts to CSP. */
const EXECUTABLE_TYPES = new Set(['', 'text/javascript', 'application/javascript', 'module']);

/**
 * The CSP hash of each inline script of a page (`'sha256-...'`).
 * @param {string} html
 * @returns {string[]}
 */
export function inlineScriptHashes(html) {
  const hashes = [];
  for (const match of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    const attributes = match[1] ?? '';
    if (/\bsrc\s*=/i.test(attributes)) continue;
    const type = /\btype\s*=\s*["']?([^"'\s>]+)/i.exec(attributes)?.[1]?.toLowerCase() ?? '';
    if (!EXECUTABLE_TYPES.has(type)) continue;
    const digest = createHash('sha256')
      .update(match[2] ?? '', 'utf8')
      .digest('base64');
    hashes.push(`'sha256-${digest}'`);
  }
  return hashes;
}

/**
 * The inline-script hashes of every HTML page of a built site, each
 * language's folder included (dist/fr/, dist/ar/).
 * @param {string} distDir
 * @returns {string[]}
 */
export function builtScriptHashes(distDir) {
  const pages = readdirSync(distDir, { recursive: true, encoding: 'utf8' }).filter((file) =>
    file.endsWith('.html'),
  );
  const hashes = pages.flatMap((page) =>
    inlineScriptHashes(readFileSync(join(distDir, page), 'utf8')),
  );
  return [...new Set(hashes)].sort();
}

/**
 * @param {{ scriptHashes?: readonly string[] }} [options]
 * @returns {string}
 */
export function contentSecurityPolicy({ scriptHashes = [] } = {}) {
  /** @type {Record<string, readonly string[]>} */
  const directives = {
    'default-src': ["'self'"],
    'script-src': ["'self'", ...scriptHashes],
    // MUI (emotion) writes its styles into <style> elements as it renders.
    'style-src': ["'self'", "'unsafe-inline'"],
    'img-src': ["'self'", 'data:', 'blob:', STOCK_PHOTO_ORIGIN],
    'font-src': ["'self'", 'data:'],
    // The API is reached through the site's own /api, in every mode.
    'connect-src': ["'self'"],
    'object-src': ["'none'"],
    'base-uri': ["'none'"],
    'form-action': ["'self'"],
    'frame-ancestors': ["'none'"],
  };
  return Object.entries(directives)
    .map(([name, values]) => `${name} ${values.join(' ')}`)
    .join('; ');
}

/**
 * Every header the site's pages and files are sent with.
 * @param {{ scriptHashes?: readonly string[] }} [options]
 * @returns {Record<string, string>}
 */
export function securityHeaders(options = {}) {
  return {
    'Content-Security-Policy': contentSecurityPolicy(options),
    'X-Content-Type-Options': 'nosniff',
    // For browsers without frame-ancestors.
    'X-Frame-Options': 'DENY',
    'Referrer-Policy': 'strict-origin-when-cross-origin',
    'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), payment=(), usb=()',
    'Cross-Origin-Opener-Policy': 'same-origin',
  };
}

/**
 * The headers as nginx `add_header` lines, for a file nginx.conf includes
 * in each location (`always`: error pages carry them too).
 * @param {Record<string, string>} headers
 * @returns {string}
 */
export function nginxHeaderLines(headers) {
  return Object.entries(headers)
    .map(([name, value]) => `add_header ${name} "${value}" always;`)
    .join('\n');
}

const invokedAs = process.argv[1] ? pathToFileURL(process.argv[1]).href : '';
if (import.meta.url === invokedAs) {
  const [format, distDir] = process.argv.slice(2);
  if (format !== 'nginx' || !distDir) {
    console.error('usage: node security-headers.mjs nginx <built site folder>');
    process.exit(2);
  }
  const headers = securityHeaders({ scriptHashes: builtScriptHashes(distDir) });
  process.stdout.write(`${nginxHeaderLines(headers)}\n`);
}
