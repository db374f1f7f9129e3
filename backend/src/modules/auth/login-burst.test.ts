import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import argon2 from 'argon2';
import { createTestContext, type TestContext } from '../../testing/test-context';
import { TEST_PASSWORD } from '../../testing/admin-fixtures';
import { createUser } from '../users';

/**
 * Guesses sent all at once, over real sockets, against the documented
 * limits: 10 sign-ins per account per 60 s, 30 per address per 15 min.
 * However they interleave, no more passwords are checked than the limits
 * allow; every other guess is answered 429 without a check.
 */
let ctx: TestContext;
let server: Server;
let baseUrl: string;

beforeAll(async () => {
  ctx = await createTestContext({
    env: {
      TRUST_PROXY: 'true',
      LOGIN_MAX_FAILURES_PER_ACCOUNT: '10',
      LOGIN_ACCOUNT_WINDOW_SECONDS: '60',
      LOGIN_MAX_FAILURES_PER_IP: '30',
      LOGIN_IP_WINDOW_SECONDS: '900',
      // The limits are exact while Redis answers in time; a burst of 300 on a
      // loaded test machine can keep the replies waiting longer than the
      // default half second, and then each process counts in its memory too.
      REDIS_REQUEST_TIMEOUT_MS: '5000',
    },
  });
  await createUser({
    username: 'target',
    email: 'target@agency.tn',
    role: 'admin',
    password: TEST_PASSWORD,
  });
  server = createServer(ctx.app.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await ctx.close();
});

function signIn(ip: string, username: string, password: string): Promise<number> {
  return fetch(`${baseUrl}/api/admin/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': ip },
    body: JSON.stringify({ username, password }),
  }).then(async (response) => {
    await response.arrayBuffer();
    return response.status;
  });
}

function tally(statuses: number[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const status of statuses) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
}

describe('a burst of simultaneous sign-ins', () => {
  it('checks at most 10 passwords of one account, the right one included, and pauses the rest', async () => {
    const verify = jest.spyOn(argon2, 'verify');
    try {
      const guesses = Array.from({ length: 99 }, (_, index) =>
        signIn('203.0.113.10', 'target', `wrong guess ${index}`),
      );
      const statuses = await Promise.all([
        ...guesses,
        signIn('203.0.113.10', 'target', TEST_PASSWORD),
      ]);

      const counts = tally(statuses);
      expect((counts[401] ?? 0) + (counts[200] ?? 0)).toBe(10);
      expect(counts[429]).toBe(90);
      expect(verify).toHaveBeenCalledTimes(10);
    } finally {
      verify.mockRestore();
    }
  });

  it('checks at most 30 passwords from one address across 300 different usernames', async () => {
    const verify = jest.spyOn(argon2, 'verify');
    try {
      const statuses = await Promise.all(
        Array.from({ length: 300 }, (_, index) =>
          signIn('198.51.100.77', `nobody-${index}`, 'a wrong guess'),
        ),
      );

      expect(tally(statuses)).toEqual({ 401: 30, 429: 270 });
      expect(verify).toHaveBeenCalledTimes(30);
      // The next window's burst is no bigger: the address stays paused.
      const later = await Promise.all(
        Array.from({ length: 20 }, (_, index) =>
          signIn('198.51.100.77', `later-${index}`, 'a wrong guess'),
        ),
      );
      expect(tally(later)).toEqual({ 429: 20 });
    } finally {
      verify.mockRestore();
    }
  });
});
