/**
 * Runs the compose web server's configuration (frontend/nginx.conf) in a real
 * nginx, with the api service replaced by a local server that reports what
 * reached it: the file must load, the uploads must get through with room for
 * the API's own limits, every other body stays small, and the archive's
 * addresses reach the API's archive paths. `npm test` installs nginx (apt);
 * NGINX_BIN names another one.
 */
import { spawnSync } from 'node:child_process';
import {
  accessSync,
  chmodSync,
  constants,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { IMPORT_MAX_BYTES, MEDIA_MAX_BYTES } from '@agency/contracts';

const repoRoot = resolve(__dirname, '..', '..');
const NGINX_BIN = process.env.NGINX_BIN ?? '/usr/sbin/nginx';

interface Reached {
  url: string;
  bytes: number;
  forwardedFor: string | undefined;
}

let dir: string;
let api: Server;
let webPort: number;
const reached: Reached[] = [];

function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const probe = createServer();
    probe.once('error', fail);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => done(port));
    });
  });
}

/** frontend/nginx.conf as compose runs it, pointed at this test's api and folders. */
function localSiteConfig(apiPort: number, port: number): string {
  const site = readFileSync(join(repoRoot, 'frontend', 'nginx.conf'), 'utf8');
  const local = site
    .replaceAll('http://api:4000', `http://127.0.0.1:${apiPort}`)
    .replace(/^\s*listen 80;$/m, `listen 127.0.0.1:${port};`)
    .replaceAll('/etc/nginx/snippets/', `${dir}/snippets/`)
    .replaceAll('/usr/share/nginx/html', `${dir}/html`);
  expect(local).not.toContain('api:4000');
  return local;
}

function nginx(args: string[]) {
  return spawnSync(NGINX_BIN, ['-p', dir, '-c', join(dir, 'nginx.conf'), ...args], {
    encoding: 'utf8',
  });
}

beforeAll(async () => {
  try {
    accessSync(NGINX_BIN, constants.X_OK);
  } catch {
    throw new Error(
      `nginx not found at ${NGINX_BIN}: install it with apt-get install -y nginx ` +
        '(npm test does, as root), or set NGINX_BIN',
    );
  }
  dir = mkdtempSync(join(tmpdir(), 'agency-web-'));
  for (const folder of ['snippets', 'html', 'logs', 'temp']) mkdirSync(join(dir, folder));
  // Run as root, nginx's workers are another user: they buffer large bodies in temp.
  chmodSync(dir, 0o755);
  chmodSync(join(dir, 'temp'), 0o777);
  // The image writes the security headers' snippet at build time; its content is not tested here.
  writeFileSync(join(dir, 'snippets', 'security-headers.conf'), '');
  api = createServer((request, response) => {
    let bytes = 0;
    request.on('data', (chunk: Buffer) => (bytes += chunk.length));
    request.on('end', () => {
      reached.push({
        url: request.url ?? '',
        bytes,
        forwardedFor: request.headers['x-forwarded-for'] as string | undefined,
      });
      response.end('api');
    });
  });
  await new Promise<void>((done) => api.listen(0, '127.0.0.1', done));
  webPort = await freePort();
  writeFileSync(
    join(dir, 'site.conf'),
    localSiteConfig((api.address() as AddressInfo).port, webPort),
  );
  writeFileSync(
    join(dir, 'nginx.conf'),
    [
      'daemon on;',
      'worker_processes 1;',
      `pid ${dir}/nginx.pid;`,
      `error_log ${dir}/logs/error.log;`,
      'events {}',
      'http {',
      `  access_log off;`,
      `  client_body_temp_path ${dir}/temp/body;`,
      `  proxy_temp_path ${dir}/temp/proxy;`,
      `  include ${dir}/site.conf;`,
      '}',
    ].join('\n'),
  );
  const started = nginx([]);
  if (started.status !== 0) throw new Error(`nginx did not start: ${started.stderr}`);
}, 30_000);

afterAll(async () => {
  if (dir) {
    nginx(['-s', 'stop']);
    rmSync(dir, { recursive: true, force: true });
  }
  await new Promise((done) => api?.close(done));
});

async function post(path: string, bytes: number): Promise<number> {
  const response = await fetch(`http://127.0.0.1:${webPort}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/octet-stream', 'x-forwarded-for': '203.0.113.9' },
    body: new Uint8Array(bytes),
  });
  await response.arrayBuffer();
  return response.status;
}

describe('the compose web server', () => {
  it('loads its configuration', () => {
    const check = nginx(['-t']);
    expect(check.stderr).toContain('test is successful');
  });

  it('lets an image upload through, a little over the API limit, so the API answers its own 413', async () => {
    expect(await post('/api/admin/media', MEDIA_MAX_BYTES + 100_000)).toBe(200);
    expect(reached.at(-1)).toMatchObject({
      url: '/api/admin/media',
      bytes: MEDIA_MAX_BYTES + 100_000,
    });
    expect(await post('/api/admin/media', MEDIA_MAX_BYTES * 1.2)).toBe(413);
  });

  it('lets a list import through the same way', async () => {
    expect(await post('/api/admin/imports', IMPORT_MAX_BYTES + 100_000)).toBe(200);
    expect(reached.at(-1)).toMatchObject({
      url: '/api/admin/imports',
      bytes: IMPORT_MAX_BYTES + 100_000,
    });
    expect(await post('/api/admin/imports', IMPORT_MAX_BYTES * 1.1)).toBe(413);
  });

  it('keeps every other body small, and replaces the forwarded address', async () => {
    expect(await post('/api/contact', 200_000)).toBe(413);
    expect(await post('/api/admin/media/0123', 200_000)).toBe(413);
    expect(await post('/api/contact', 10_000)).toBe(200);
    expect(reached.at(-1)).toMatchObject({ url: '/api/contact', forwardedFor: '127.0.0.1' });
  });

  it("sends the newsletter archive's addresses to the API's archive pages", async () => {
    const id = '0123456789abcdef01234567';
    for (const [address, apiPath] of [
      [`/newsletter/${id}`, `/api/archive/en/pages/${id}`],
      [`/fr/newsletter/${id}`, `/api/archive/fr/pages/${id}`],
      ['/ar/newsletter', '/api/archive/ar/pages'],
    ]) {
      const response = await fetch(`http://127.0.0.1:${webPort}${address}`);
      expect(await response.text()).toBe('api');
      expect(reached.at(-1)?.url).toBe(apiPath);
    }
  });
});
