import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import {
  contentSecurityPolicy,
  inlineScriptHashes,
  nginxHeaderLines,
  securityHeaders,
} from '../../security-headers.mjs';

const frontendDir = join(__dirname, '..', '..');

function directives(policy: string): Record<string, string[]> {
  return Object.fromEntries(
    policy.split(';').map((part) => {
      const [name = '', ...values] = part.trim().split(/\s+/);
      return [name, values];
    }),
  );
}

describe('the site’s security headers', () => {
  it('hold the strict policy: scripts by origin or hash only, no plugins, no base, no framing', () => {
    const policy = directives(contentSecurityPolicy({ scriptHashes: ["'sha256-abc='"] }));
    expect(policy['script-src']).toEqual(["'self'", "'sha256-abc='"]);
    expect(policy['object-src']).toEqual(["'none'"]);
    expect(policy['base-uri']).toEqual(["'none'"]);
    expect(policy['frame-ancestors']).toEqual(["'none'"]);
    expect(policy['connect-src']).toEqual(["'self'"]);
    expect(policy['img-src']).toContain('https://images.unsplash.com');
    expect(Object.values(policy).flat()).not.toContain("'unsafe-eval'");
    expect(policy['script-src']).not.toContain("'unsafe-inline'");

    expect(securityHeaders()).toMatchObject({
      'X-Content-Type-Options': 'nosniff',
      'X-Frame-Options': 'DENY',
      'Referrer-Policy': 'strict-origin-when-cross-origin',
      'Permissions-Policy': expect.stringContaining('camera=()'),
    });
  });

  it('allows exactly the executable inline scripts of a page, by their hash', () => {
    const script = "document.documentElement.dataset.x = '1';";
    const html = [
      `<script>${script}</script>`,
      '<script type="module" src="/assets/index.js"></script>',
      '<script type="application/ld+json">{"@type":"Organization"}</script>',
    ].join('');
    const hash = createHash('sha256').update(script).digest('base64');
    expect(inlineScriptHashes(html)).toEqual([`'sha256-${hash}'`]);
  });

  it('covers the inline script of index.html', () => {
    const html = readFileSync(join(frontendDir, 'index.html'), 'utf8');
    expect(inlineScriptHashes(html)).toHaveLength(1);
  });

  it('is what nginx sends from every location that serves the site', () => {
    const nginx = readFileSync(join(frontendDir, 'nginx.conf'), 'utf8');
    const locations = [...nginx.matchAll(/^\s*location ([^{\n]+)\{([^}]*)\}/gm)];
    // The API's, the health check's and the language redirects (/fr -> /fr/) serve no page.
    const served = locations.filter(
      ([, path, body]) =>
        !/\/api\/|healthz/.test(path ?? '') && !/^\s*return 30\d/m.test(body ?? ''),
    );
    expect(served.map(([, path]) => path?.trim())).toEqual([
      '/assets/',
      '= /',
      '~ ^/(fr|ar)/$',
      '= /index.html',
      '/',
    ]);
    for (const [, , body] of served) {
      expect(body).toContain('include /etc/nginx/snippets/security-headers.conf;');
    }
    expect(nginx).not.toMatch(/add_header Content-Security-Policy/);
    const dockerfile = readFileSync(join(frontendDir, 'Dockerfile'), 'utf8');
    expect(dockerfile).toContain('node frontend/security-headers.mjs nginx frontend/dist');
    expect(dockerfile).toContain('/etc/nginx/snippets/security-headers.conf');
  });

  it('prints the headers of a built site as nginx lines, hashes included', () => {
    const dist = mkdtempSync(join(tmpdir(), 'agency-headers-'));
    try {
      writeFileSync(join(dist, 'index.html'), '<script>one()</script>');
      writeFileSync(join(dist, 'home.html'), '<script>one()</script><script>two()</script>');
      const printed = execFileSync(
        process.execPath,
        [join(frontendDir, 'security-headers.mjs'), 'nginx', dist],
        { encoding: 'utf8' },
      );
      const hashes = [
        ...new Set([...inlineScriptHashes('<script>one()</script><script>two()</script>')]),
      ];
      expect(printed.trim()).toBe(
        nginxHeaderLines(securityHeaders({ scriptHashes: hashes.sort() })),
      );
      expect(printed).toContain('add_header X-Frame-Options "DENY" always;');
    } finally {
      rmSync(dist, { recursive: true, force: true });
    }
  });
});
