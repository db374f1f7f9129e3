import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createTcpServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { postJsonFrom } from '../../testing/from-address';
import { TEST_PASSWORD } from '../../testing/admin-fixtures';
import { createTestContext, type TestContext } from '../../testing/test-context';
import { createUser } from '../users';

/**
 * Sign-ins through the website's own server, as `npm start` runs it: the
 * real `vite preview` with frontend/vite.config.ts proxies /api to this
 * file's API, which trusts that server alone (TRUST_PROXY=127.0.0.1, what
 * scripts/lib/app-env.mjs gives the API of the stack). Visitors come from
 * 127.0.0.2 and 127.0.0.3: sockets bound to those addresses. The limits are
 * the defaults: 30 failures per address in 15 minutes, 10 per name in 60 s.
 */
const FRONTEND = join(__dirname, '..', '..', '..', '..', 'frontend');
const VITE = [join(FRONTEND, 'node_modules/.bin/vite'), join(FRONTEND, '../node_modules/.bin/vite')]
  .filter(existsSync)
  .at(0);

let ctx: TestContext;
let api: Server;
let website: ChildProcess;
let websiteOutput = '';
let websiteUrl: string;
let siteDir: string;

async function freePort(): Promise<number> {
  const probe = createTcpServer();
  probe.listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** Resolves once the website answers, or fails with what it printed. */
async function websiteReady(url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (website.exitCode !== null) break;
    const answered = await fetch(url).then(
      (response) => response.ok,
      () => false,
    );
    if (answered) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`vite preview did not answer at ${url}:\n${websiteOutput}`);
}

beforeAll(async () => {
  if (!VITE) throw new Error(`vite is not installed under ${FRONTEND}`);
  ctx = await createTestContext({ env: { TRUST_PROXY: '127.0.0.1' } });
  await createUser({
    username: 'owner',
    email: 'owner@agency.tn',
    role: 'admin',
    password: TEST_PASSWORD,
  });
  api = createHttpServer(ctx.app.callback());
  api.listen(0, '127.0.0.1');
  await once(api, 'listening');
  const apiUrl = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;

  // The site's pages play no part here: an empty build stands in for frontend/dist.
  siteDir = mkdtempSync(join(tmpdir(), 'agency-site-'));
  writeFileSync(join(siteDir, 'index.html'), '<!doctype html><title>site</title>');
  const port = await freePort();
  website = spawn(
    VITE,
    ['preview', '--outDir', siteDir, '--port', String(port), '--strictPort', '--host', '127.0.0.1'],
    { cwd: FRONTEND, env: { ...process.env, API_PROXY_TARGET: apiUrl }, stdio: 'pipe' },
  );
  const collect = (chunk: Buffer) => {
    websiteOutput += chunk.toString();
  };
  website.stdout?.on('data', collect);
  website.stderr?.on('data', collect);
  websiteUrl = `http://127.0.0.1:${port}`;
  await websiteReady(websiteUrl, 60_000);
}, 90_000);

afterAll(async () => {
  if (website && website.exitCode === null) {
    website.kill('SIGTERM');
    await once(website, 'exit');
  }
  if (siteDir) rmSync(siteDir, { recursive: true, force: true });
  if (api) await new Promise((resolve) => api.close(resolve));
  await ctx?.close();
});

/** A sign-in sent to the website from `visitor`, with whatever X-Forwarded-For the visitor writes. */
function signInThroughWebsite(
  visitor: string,
  credentials: { username: string; password: string },
  forgedForwardedFor: string,
) {
  return postJsonFrom(visitor, `${websiteUrl}/api/admin/login`, credentials, {
    'X-Forwarded-For': forgedForwardedFor,
  });
}

describe('sign-in limits through the website', () => {
  it('pauses the address that failed 30 times and leaves another address free', async () => {
    const failures = await Promise.all(
      Array.from({ length: 30 }, (_, index) =>
        signInThroughWebsite(
          '127.0.0.2',
          { username: `nobody-${index}`, password: 'a wrong guess' },
          // The visitor tries to pass for a new address each time.
          `203.0.113.${index + 1}`,
        ),
      ),
    );
    expect(failures.map(({ status }) => status)).toEqual(Array(30).fill(401));

    const paused = await signInThroughWebsite(
      '127.0.0.2',
      { username: 'owner', password: TEST_PASSWORD },
      '198.51.100.200',
    );
    expect(paused.status).toBe(429);
    expect(Number(paused.headers['retry-after'])).toBeGreaterThan(60);

    const other = await signInThroughWebsite(
      '127.0.0.3',
      { username: 'owner', password: TEST_PASSWORD },
      '127.0.0.2',
    );
    expect(other.status).toBe(200);
  });

  it("gives a visitor at the website's own address no way to name another", async () => {
    // The website's requests to the API come from 127.0.0.1, which the API
    // trusts: were the visitor's header kept, one from there could choose.
    for (let index = 0; index < 30; index += 1) {
      const failed = await signInThroughWebsite(
        '127.0.0.1',
        { username: `stranger-${index}`, password: 'a wrong guess' },
        `192.0.2.${index + 1}`,
      );
      expect(failed.status).toBe(401);
    }
    const paused = await signInThroughWebsite(
      '127.0.0.1',
      { username: 'owner', password: TEST_PASSWORD },
      '192.0.2.77',
    );
    expect(paused.status).toBe(429);
  });
});
