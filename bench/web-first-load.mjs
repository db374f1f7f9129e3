// @ts-check
/**
 * What a visitor's browser downloads before the public site can run: every
 * script and stylesheet index.html references or inlines, plus every chunk
 * those scripts import statically (transitively). Dynamic import() chunks are not counted:
 * they load later, on demand.
 */
import { readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { gzipSync } from 'node:zlib';

/** @typedef {{ file: string, kind: 'js' | 'css', bytes: number, gzipBytes: number }} Asset */

// Static `import ... from "./x.js"`, `import "./x.js"` and `export ... from "./x.js"`;
// `import("./x.js")` (dynamic) has a parenthesis and is not matched.
const STATIC_IMPORT =
  /(?:^|[;}\s])(?:import|export)\s*(?:[\w$*{}\s,]+?\s*from\s*)?["']([^"']+\.js)["']/g;

/**
 * @param {string} html
 * @returns {{ scripts: string[], styles: string[] }} paths as written in index.html
 */
export function referencedAssets(html) {
  const scripts = [...html.matchAll(/<script[^>]*\ssrc="([^"]+)"/g)].map((match) => match[1] ?? '');
  const preloads = [...html.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="([^"]+)"/g)].map(
    (match) => match[1] ?? '',
  );
  const styles = [...html.matchAll(/<link[^>]*rel="stylesheet"[^>]*href="([^"]+)"/g)].map(
    (match) => match[1] ?? '',
  );
  return { scripts: [...new Set([...scripts, ...preloads])], styles };
}

/**
 * @param {string} code a built ES module
 * @returns {string[]} the specifiers it imports statically
 */
export function staticImports(code) {
  return [...code.matchAll(STATIC_IMPORT)].map((match) => match[1] ?? '');
}

/**
 * @param {string} distDir the built app (frontend/dist)
 * @returns {{ assets: Asset[], js: { bytes: number, gzipBytes: number }, css: { bytes: number, gzipBytes: number } }}
 */
export function measureFirstLoad(distDir) {
  const html = readFileSync(join(distDir, 'index.html'), 'utf8');
  const { scripts, styles } = referencedAssets(html);
  /** @type {Map<string, Asset>} */
  const seen = new Map();

  /** @param {string} urlPath @param {'js' | 'css'} kind */
  const visit = (urlPath, kind) => {
    const file = posix.normalize(urlPath.replace(/^\//, ''));
    if (seen.has(file)) return;
    const content = readFileSync(join(distDir, file));
    seen.set(file, {
      file,
      kind,
      bytes: content.length,
      gzipBytes: gzipSync(content, { level: 9 }).length,
    });
    if (kind === 'js') {
      for (const specifier of staticImports(content.toString('utf8'))) {
        visit(posix.join(posix.dirname(`/${file}`), specifier), 'js');
      }
    }
  };
  for (const script of scripts) visit(script, 'js');
  for (const style of styles) visit(style, 'css');
  // Stylesheets inlined into index.html (vite.config.ts) are first-load CSS too.
  [...html.matchAll(/<style>([\s\S]*?)<\/style>/g)].forEach((match, index) => {
    const content = Buffer.from(match[1] ?? '');
    seen.set(`index.html <style> #${index + 1}`, {
      file: `index.html <style> #${index + 1}`,
      kind: 'css',
      bytes: content.length,
      gzipBytes: gzipSync(content, { level: 9 }).length,
    });
  });

  const assets = [...seen.values()];
  /** @param {'js' | 'css'} kind */
  const total = (kind) =>
    assets
      .filter((asset) => asset.kind === kind)
      .reduce(
        (sum, asset) => ({
          bytes: sum.bytes + asset.bytes,
          gzipBytes: sum.gzipBytes + asset.gzipBytes,
        }),
        { bytes: 0, gzipBytes: 0 },
      );
  return { assets, js: total('js'), css: total('css') };
}
