import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ConfigError } from '@agency/platform';
import { TEST_SECRETS } from '@agency/platform/testing/test-secrets';
import { loadApiConfig } from '../config';
import { QUEUE_BOARD_SESSION_PATH } from '../modules/queue-board';
import { createUser } from '../modules/users';
import { signedInUser, TEST_PASSWORD } from '../testing/admin-fixtures';
import { postJsonFrom } from '../testing/from-address';
import { createTestContext, type TestContext } from '../testing/test-context';
import { parseTrustProxy } from './client-address';

describe('TRUST_PROXY', () => {
  it('keeps true and false, in the spellings a yes/no setting takes', () => {
    for (const yes of ['true', 'TRUE', '1', 'yes', 'on', 't']) {
      expect(parseTrustProxy(yes)).toBe(true);
    }
    for (const no of ['false', '0', 'no', 'off', 'f']) expect(parseTrustProxy(no)).toBe(false);
  });

  it('names proxies by address, CIDR range or kind', () => {
    expect(parseTrustProxy(' 10.0.0.5, 10.1.0.0/16 ,fd00::/8, loopback ')).toEqual([
      '10.0.0.5',
      '10.1.0.0/16',
      'fd00::/8',
      'loopback',
    ]);
  });

  it('refuses at start what is neither, naming the entry', () => {
    const base = {
      ...TEST_SECRETS,
      MONGODB_URI: 'mongodb://127.0.0.1:27017/a',
      REDIS_URL: 'redis://127.0.0.1',
    };
    let refusal: unknown;
    try {
      loadApiConfig({ ...base, TRUST_PROXY: '10.0.0.5, proxy.example' });
    } catch (error: unknown) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(ConfigError);
    expect((refusal as ConfigError).message).toMatch(/TRUST_PROXY.*"proxy\.example" is neither/);
    expect(loadApiConfig({ ...base, TRUST_PROXY: '127.0.0.1' }).trustProxy).toEqual(['127.0.0.1']);
    expect(loadApiConfig(base).trustProxy).toBe(false);
  });
});

/**
 * The API trusts one proxy, at 127.0.0.1 (as `npm start` sets it for its web
 * server). Visitors reach it straight from 127.0.0.2 and 127.0.0.3, sockets
 * bound to those addresses: a forged X-Forwarded-For must not give them
 * another address's allowance.
 */
describe('the visitor address behind a trusted proxy', () => {
  let ctx: TestContext;
  let server: Server;
  let origin: string;
  let loginUrl: string;

  beforeAll(async () => {
    ctx = await createTestContext({
      env: {
        TRUST_PROXY: '127.0.0.1',
        LOGIN_MAX_FAILURES_PER_IP: '3',
        LOGIN_IP_WINDOW_SECONDS: '600',
        LOGIN_MAX_FAILURES_PER_ACCOUNT: '100',
      },
    });
    await createUser({
      username: 'owner',
      email: 'owner@agency.tn',
      role: 'admin',
      password: TEST_PASSWORD,
    });
    server = createServer(ctx.app.callback());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    loginUrl = `${origin}/api/admin/login`;
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await ctx.close();
  });

  const signIn = (from: string, password: string, headers: Record<string, string> = {}) =>
    postJsonFrom(from, loginUrl, { username: 'owner', password }, headers);

  it('keeps counting a direct visitor under its own address whatever X-Forwarded-For says', async () => {
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const failed = await signIn('127.0.0.2', 'a wrong guess', {
        'X-Forwarded-For': `203.0.113.${attempt + 1}`,
      });
      expect(failed.status).toBe(401);
    }
    const forgedAgain = await signIn('127.0.0.2', TEST_PASSWORD, {
      'X-Forwarded-For': '203.0.113.99, 127.0.0.1',
    });
    expect(forgedAgain.status).toBe(429);
    expect((await signIn('127.0.0.3', TEST_PASSWORD)).status).toBe(200);
  });

  it('counts a visitor the trusted proxy names under that visitor, not what the visitor wrote before it', async () => {
    // A proxy that appends: the visitor's own X-Forwarded-For comes first.
    const viaProxy = (visitor: string, password: string, forged: string) =>
      signIn('127.0.0.1', password, { 'X-Forwarded-For': `${forged}, ${visitor}` });
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const failed = await viaProxy('198.51.100.7', 'a wrong guess', `192.0.2.${attempt + 1}`);
      expect(failed.status).toBe(401);
    }
    expect((await viaProxy('198.51.100.7', TEST_PASSWORD, '192.0.2.50')).status).toBe(429);
    expect((await viaProxy('198.51.100.8', TEST_PASSWORD, '192.0.2.1')).status).toBe(200);
  });

  it('believes the forwarded protocol from the trusted proxy alone', async () => {
    const admin = await signedInUser(ctx, 'admin');
    // The queue board's cookie is marked Secure when the request came over HTTPS.
    const boardCookieFrom = async (from: string) => {
      const answer = await postJsonFrom(
        from,
        `${origin}${QUEUE_BOARD_SESSION_PATH}`,
        {},
        { Authorization: `Bearer ${admin.token}`, 'X-Forwarded-Proto': 'https' },
      );
      expect(answer.status).toBe(204);
      return String(answer.headers['set-cookie']);
    };
    expect(await boardCookieFrom('127.0.0.1')).toMatch(/;\s*secure/i);
    expect(await boardCookieFrom('127.0.0.2')).not.toMatch(/;\s*secure/i);
  });
});
