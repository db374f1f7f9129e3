import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { archiveApiPathOf } from '../../archive-addresses.mjs';
import { buildRobots } from './seo/sitemap';

const ID = '65f0a1b2c3d4e5f6a7b8c9d0';

/** The archive's public addresses and the API path each is answered by (null: the SPA's). */
const ADDRESSES: [string, string | null][] = [
  ['/newsletter', '/api/archive/en/pages'],
  ['/fr/newsletter', '/api/archive/fr/pages'],
  ['/ar/newsletter', '/api/archive/ar/pages'],
  [`/newsletter/${ID}`, `/api/archive/en/pages/${ID}`],
  [`/ar/newsletter/${ID}`, `/api/archive/ar/pages/${ID}`],
  ['/newsletter/feed.xml', '/api/archive/en/feed.xml'],
  ['/fr/newsletter/feed.xml', '/api/archive/fr/feed.xml'],
  ['/newsletter/sitemap.xml', '/api/archive/sitemap.xml'],
  ['/newsletter/confirm', null],
  ['/newsletter/unsubscribe', null],
  ['/fr/newsletter/confirm', null],
  ['/fr/newsletter/sitemap.xml', null],
  ['/de/newsletter', null],
  [`/newsletter/${ID}/x`, null],
  ['/newsletter/..%2Fadmin', null],
];

describe('the newsletter archive addresses', () => {
  it.each(ADDRESSES)('%s is answered by %s', (path, apiPath) => {
    expect(archiveApiPathOf(path)).toBe(apiPath);
  });

  it('are rewritten by nginx as by vite', () => {
    const nginx = readFileSync(join(__dirname, '..', '..', 'nginx.conf'), 'utf8');
    // A pattern with braces is quoted in nginx.conf ("…{24}…"), as nginx requires.
    const rewrites = [...nginx.matchAll(/^\s*rewrite "?([^"\s]+)"? (\S+) last;$/gm)].map(
      ([, from = '', to = '']) => ({ from: new RegExp(from), to }),
    );
    expect(rewrites).toHaveLength(7);
    for (const [path, apiPath] of ADDRESSES) {
      const rule = rewrites.find(({ from }) => from.test(path));
      // nginx's $1 is String.replace's $1.
      const rewritten = rule ? path.replace(rule.from, rule.to) : null;
      expect([path, rewritten]).toEqual([path, apiPath]);
    }
  });

  it("are named in robots.txt by the archive's own sitemap", () => {
    expect(buildRobots('https://agency.example/')).toContain(
      'Sitemap: https://agency.example/newsletter/sitemap.xml',
    );
  });
});
