import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  addressedFileOf,
  BUILT_ORIGIN_FILE,
  builtOriginOf,
  withServedOrigin,
} from '../../site-origin.mjs';

let dist: string;
beforeAll(() => {
  dist = mkdtempSync(join(tmpdir(), 'site-origin-'));
  mkdirSync(join(dist, 'fr'));
  for (const file of ['home.html', 'services.html', 'fr/index.html', 'sitemap.xml', 'robots.txt']) {
    writeFileSync(join(dist, file), 'http://localhost:5173/');
  }
  writeFileSync(join(dist, 'favicon.svg'), '<svg/>');
  writeFileSync(join(tmpdir(), 'outside.html'), 'not of the build');
});
afterAll(() => rmSync(dist, { recursive: true, force: true }));

describe('serving the build from the origin it really has', () => {
  it('reads the origin the build recorded, and none from an older build', () => {
    expect(builtOriginOf(dist)).toBeNull();
    writeFileSync(join(dist, BUILT_ORIGIN_FILE), 'http://localhost:5173\n');
    expect(builtOriginOf(dist)).toBe('http://localhost:5173');
  });

  it('finds the page, sitemap or robots file an address is answered from', () => {
    expect(addressedFileOf(dist, '/home.html')?.file).toBe(join(dist, 'home.html'));
    expect(addressedFileOf(dist, '/services')).toEqual({
      file: join(dist, 'services.html'),
      contentType: 'text/html; charset=utf-8',
    });
    expect(addressedFileOf(dist, '/fr/')?.file).toBe(join(dist, 'fr/index.html'));
    expect(addressedFileOf(dist, '/sitemap.xml')?.contentType).toBe(
      'application/xml; charset=utf-8',
    );
    expect(addressedFileOf(dist, '/robots.txt')?.contentType).toBe('text/plain; charset=utf-8');
  });

  it('leaves other files, unknown addresses and addresses outside the build to the server', () => {
    expect(addressedFileOf(dist, '/favicon.svg')).toBeNull();
    expect(addressedFileOf(dist, '/admin/login')).toBeNull();
    expect(addressedFileOf(dist, `/${BUILT_ORIGIN_FILE}`)).toBeNull();
    expect(addressedFileOf(dist, '/../outside.html')).toBeNull();
    expect(addressedFileOf(dist, '/%2e%2e/outside.html')).toBeNull();
    expect(addressedFileOf(dist, '/%E0%A4%A')).toBeNull();
  });

  it('moves every address of the built origin to the served one, and nothing else', () => {
    const page =
      '<link rel="canonical" href="http://localhost:5173/fr/services">' +
      '<link rel="alternate" hreflang="ar" href="http://localhost:5173/ar/services">' +
      '<a href="https://example.com/">';
    expect(withServedOrigin(page, 'http://localhost:5173', 'http://127.0.0.1:5174')).toBe(
      '<link rel="canonical" href="http://127.0.0.1:5174/fr/services">' +
        '<link rel="alternate" hreflang="ar" href="http://127.0.0.1:5174/ar/services">' +
        '<a href="https://example.com/">',
    );
  });
});
