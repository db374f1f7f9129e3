import argon2 from 'argon2';
import jwt from 'jsonwebtoken';
import request from 'supertest';
import { createTestContext, type TestContext } from '../../testing/test-context';
import { TEST_PASSWORD, as, signedInUser, unknownId } from '../../testing/admin-fixtures';
import { createUser } from '../users';
import { UserModel } from '@agency/platform/testing/users-models';
import { ActivityLogModel } from '@agency/platform/testing/activity-models';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
  await UserModel.init();
});
afterAll(async () => {
  await ctx.close();
});

const login = (body: unknown, context = ctx) =>
  request(context.app.callback())
    .post('/api/admin/login')
    .send(body as object);

function claimsToken(claims: object, options: jwt.SignOptions = {}, secret?: string): string {
  return jwt.sign(claims, secret ?? ctx.config.auth.jwtSecret, {
    algorithm: 'HS256',
    issuer: 'agency-api',
    audience: 'agency-admin',
    ...options,
  });
}

describe('POST /api/admin/login', () => {
  const owner = { username: 'nadia', email: 'Nadia@Agency.tn', role: 'manager' as const };
  let ownerId: string;
  beforeAll(async () => {
    ownerId = (await createUser({ ...owner, password: TEST_PASSWORD })).id;
  });

  it('signs in by username, answers the spec shape with an 8-hour HS256 token, and records lastLoginAt', async () => {
    const before = Date.now();
    const response = await login({ username: 'nadia', password: TEST_PASSWORD });

    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      success: true,
      token: expect.any(String),
      expiresAt: expect.any(String),
      user: { id: ownerId, username: 'nadia', email: 'nadia@agency.tn', role: 'manager' },
    });
    const decoded = jwt.decode(response.body.token, { complete: true });
    expect(decoded?.header.alg).toBe('HS256');
    const payload = decoded?.payload as jwt.JwtPayload;
    expect(payload.sub).toBe(ownerId);
    expect((payload.exp ?? 0) - (payload.iat ?? 0)).toBe(8 * 3600);
    const stored = await UserModel.findById(ownerId).lean();
    expect(stored?.lastLoginAt?.getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(JSON.stringify(response.body)).not.toContain('argon2');
  });

  it('signs in by e-mail in any case', async () => {
    const response = await login({ username: ' NADIA@agency.TN ', password: TEST_PASSWORD });
    expect(response.status).toBe(200);
    expect(response.body.user.username).toBe('nadia');
  });

  it('answers a wrong password and an unknown user alike, with success false', async () => {
    const wrong = await login({ username: 'nadia', password: 'not the password' });
    const unknown = await login({ username: 'nobody-here', password: 'not the password' });

    for (const response of [wrong, unknown]) {
      expect(response.status).toBe(401);
      expect(response.body).toEqual({
        success: false,
        error: { code: 'UNAUTHENTICATED', message: 'Invalid username or password' },
      });
    }
  });

  it('checks an unknown user against a hash too, so it costs what a wrong password costs', async () => {
    // argon2.verify is the expensive step; both paths must run it exactly once.
    const verify = jest.spyOn(argon2, 'verify');
    try {
      await login({ username: 'nobody-at-all', password: 'whatever it is' });
      expect(verify).toHaveBeenCalledTimes(1);
      verify.mockClear();
      await login({ username: 'nadia', password: 'whatever it is' });
      expect(verify).toHaveBeenCalledTimes(1);
    } finally {
      verify.mockRestore();
    }
  });

  it('refuses a missing username or password with the spec texts', async () => {
    const response = await login({ username: '', password: 5 });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      success: false,
      error: {
        code: 'VALIDATION_FAILED',
        message: 'Some fields are invalid',
        fields: { username: 'Username is required', password: 'Must be text' },
      },
    });
    const empty = await login({});
    expect(empty.body.error.fields).toEqual({
      username: 'Username is required',
      password: 'Password is required',
    });
  });

  it('writes sign-ins and failed sign-ins to the activity log with the address', async () => {
    await ActivityLogModel.deleteMany({});
    await login({ username: 'nadia', password: TEST_PASSWORD });
    await login({ username: 'nadia', password: 'bad password here' });
    await login({ username: 'ghost', password: 'bad password here' });

    const entries = await ActivityLogModel.find({}).sort({ time: 1 }).lean();
    expect(
      entries.map((entry) => [entry.action, entry.actor?.username ?? null, entry.target?.label]),
    ).toEqual([
      ['auth.login', 'nadia', 'nadia'],
      ['auth.login-failed', 'nadia', 'nadia'],
      ['auth.login-failed', null, 'ghost'],
    ]);
    for (const entry of entries) {
      expect(entry.ip).toMatch(/127\.0\.0\.1/);
      expect(entry.time).toBeInstanceOf(Date);
    }
  });
});

describe('GET /api/admin/me and token checks', () => {
  it('answers the signed-in user', async () => {
    const user = await signedInUser(ctx, 'editor');
    const response = await as(ctx, user).get('/api/admin/me');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      user: {
        id: user.id,
        username: user.username,
        email: `${user.username}@agency.test`,
        role: 'editor',
      },
    });
    expect(response.headers['cache-control']).toBe('no-store');
  });

  it.each([
    ['no header', undefined],
    ['another scheme', 'Basic YWRtaW46YWRtaW4='],
    ['an empty bearer', 'Bearer '],
    ['a malformed token', 'Bearer not.a.jwt'],
    ['garbage', 'Bearer ${jndi:ldap://x}'],
  ])('answers 401 UNAUTHENTICATED for %s', async (_label, header) => {
    const call = request(ctx.app.callback()).get('/api/admin/me');
    const response = await (header ? call.set('Authorization', header) : call);
    expect(response.status).toBe(401);
    expect(response.body.error.code).toBe('UNAUTHENTICATED');
    expect(response.headers['www-authenticate']).toMatch(/^Bearer/);
  });

  it('answers 401 for an expired, tampered, re-signed, unsigned or timeless token', async () => {
    const user = await signedInUser(ctx, 'viewer');
    const other = await signedInUser(ctx, 'admin');
    const [header, payload, signature] = user.token.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<
      string,
      unknown
    >;
    const forged = Buffer.from(JSON.stringify({ ...claims, sub: other.id })).toString('base64url');
    const sid = claims.sid as string;
    const none = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');

    const tokens = {
      expired: claimsToken({ ver: 0, sid }, { subject: user.id, expiresIn: -10 }),
      tampered: `${header}.${forged}.${signature}`,
      otherSecret: claimsToken(
        { ver: 0, sid },
        { subject: user.id },
        'another-secret-of-sufficient-length!!',
      ),
      otherAlgorithm: jwt.sign({ ver: 0, sid }, ctx.config.auth.jwtSecret, {
        algorithm: 'HS512',
        subject: user.id,
        issuer: 'agency-api',
        audience: 'agency-admin',
      }),
      unsigned: `${none}.${payload}.`,
      unknownUser: claimsToken({ ver: 0, sid }, { subject: unknownId() }),
      noVersion: claimsToken({ sid }, { subject: user.id }),
      noSession: claimsToken({ ver: 0 }, { subject: user.id }),
      // Signed with the right key, but never expiring or of unknown age.
      noExpiry: claimsToken({ ver: 0, sid }, { subject: user.id, noTimestamp: false }),
      noIssuedAt: claimsToken(
        { ver: 0, sid, exp: Math.floor(Date.now() / 1000) + 3600 },
        { subject: user.id, noTimestamp: true },
      ),
    };
    // The control: the same claims with both timestamps pass.
    const complete = claimsToken({ ver: 0, sid }, { subject: user.id, expiresIn: 3600 });
    expect((await as(ctx, { token: complete }).get('/api/admin/me')).status).toBe(200);
    // The genuine token works, so each refusal is the forgery's own.
    expect((await as(ctx, user).get('/api/admin/me')).status).toBe(200);
    for (const [name, token] of Object.entries(tokens)) {
      const response = await as(ctx, { token }).get('/api/admin/me');
      expect({ name, status: response.status, code: response.body.error?.code }).toEqual({
        name,
        status: 401,
        code: 'UNAUTHENTICATED',
      });
    }
  });

  it('revokes a token when the password changes, the role changes or the user is deleted', async () => {
    const admin = await signedInUser(ctx, 'admin');
    const byPassword = await signedInUser(ctx, 'editor');
    const byRole = await signedInUser(ctx, 'editor');
    const byDelete = await signedInUser(ctx, 'editor');
    const kept = await signedInUser(ctx, 'editor');
    const edit = (user: typeof kept, change: object) =>
      as(ctx, admin).put(`/api/admin/users/${user.id}`, {
        username: user.username,
        email: `${user.username}@agency.test`,
        role: 'editor',
        ...change,
      });

    expect((await edit(byPassword, { password: 'a brand new password' })).status).toBe(200);
    expect((await edit(byRole, { role: 'viewer' })).status).toBe(200);
    expect((await as(ctx, admin).delete(`/api/admin/users/${byDelete.id}`)).status).toBe(204);
    expect((await edit(kept, { email: `${kept.username}@other.test` })).status).toBe(200);

    for (const user of [byPassword, byRole, byDelete]) {
      expect((await as(ctx, user).get('/api/admin/me')).status).toBe(401);
    }
    // An edit that changes neither password nor role leaves sessions alone.
    expect((await as(ctx, kept).get('/api/admin/me')).status).toBe(200);
    const again = await login({ username: byPassword.username, password: 'a brand new password' });
    expect(again.status).toBe(200);
  });
});

describe('sign-in throttling', () => {
  let limited: TestContext;
  beforeAll(async () => {
    limited = await createTestContext({
      env: {
        TRUST_PROXY: 'true',
        LOGIN_MAX_FAILURES_PER_ACCOUNT: '3',
        // Long enough for three argon2 checks on a loaded machine (at 1 s the
        // first failure could expire before the third and nothing paused).
        LOGIN_ACCOUNT_WINDOW_SECONDS: '3',
        LOGIN_MAX_FAILURES_PER_IP: '5',
        LOGIN_IP_WINDOW_SECONDS: '600',
      },
    });
    await createUser({
      username: 'owner',
      email: 'owner@agency.tn',
      role: 'admin',
      password: TEST_PASSWORD,
    });
  });
  afterAll(async () => {
    await limited.close();
  });
  const from = (ip: string, body: object) =>
    request(limited.app.callback()).post('/api/admin/login').set('X-Forwarded-For', ip).send(body);

  it('pauses an account briefly after a burst from many addresses, then lets its owner in', async () => {
    for (const ip of ['10.0.0.1', '10.0.0.2', '10.0.0.3']) {
      expect((await from(ip, { username: 'owner', password: 'guess-guess' })).status).toBe(401);
    }
    const paused = await from('10.9.9.9', { username: 'owner', password: TEST_PASSWORD });
    expect(paused.status).toBe(429);
    expect(paused.body).toMatchObject({ success: false, error: { code: 'RATE_LIMITED' } });
    const retryAfter = Number(paused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(3);

    // The pause is the account window (3 s here, 60 s by default), not a lockout.
    await new Promise((resolve) => setTimeout(resolve, retryAfter * 1000 + 100));
    const owner = await from('10.9.9.9', { username: 'owner', password: TEST_PASSWORD });
    expect(owner.status).toBe(200);
  });

  it('pauses an address that tries many accounts, without pausing others', async () => {
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const response = await from('192.0.2.7', {
        username: `guess${attempt}`,
        password: 'guess-guess',
      });
      expect(response.status).toBe(401);
    }
    const paused = await from('192.0.2.7', { username: 'owner', password: TEST_PASSWORD });
    expect(paused.status).toBe(429);
    expect(Number(paused.headers['retry-after'])).toBeGreaterThan(500);

    const elsewhere = await from('198.51.100.1', { username: 'owner', password: TEST_PASSWORD });
    expect(elsewhere.status).toBe(200);
  });

  it('keeps counting in memory when Redis is unreachable', async () => {
    const offline = await createTestContext({
      redisUrl: 'redis://127.0.0.1:1',
      env: { LOGIN_MAX_FAILURES_PER_ACCOUNT: '2', LOGIN_ACCOUNT_WINDOW_SECONDS: '600' },
    });
    try {
      for (let attempt = 0; attempt < 2; attempt += 1) {
        expect((await login({ username: 'owner', password: 'guess-guess' }, offline)).status).toBe(
          401,
        );
      }
      expect((await login({ username: 'owner', password: TEST_PASSWORD }, offline)).status).toBe(
        429,
      );
    } finally {
      await offline.close();
    }
  });
});

describe('sign-in counts per name', () => {
  let probed: TestContext;
  beforeAll(async () => {
    probed = await createTestContext({
      env: {
        TRUST_PROXY: 'true',
        LOGIN_MAX_FAILURES_PER_ACCOUNT: '3',
        LOGIN_ACCOUNT_WINDOW_SECONDS: '600',
        LOGIN_MAX_FAILURES_PER_IP: '1000',
      },
    });
    for (const username of ['paired', 'burst', 'returning']) {
      await createUser({
        username,
        email: `${username}@agency.tn`,
        role: 'editor',
        password: TEST_PASSWORD,
      });
    }
  });
  afterAll(async () => {
    await probed.close();
  });
  const attempt = (username: string, password = 'a wrong guess') =>
    request(probed.app.callback())
      .post('/api/admin/login')
      .set('X-Forwarded-For', '203.0.113.40')
      .send({ username, password });

  /** Pauses `username` with failures, then tries `email`: the answer a prober reads. */
  async function pairingProbe(username: string, email: string): Promise<number> {
    for (let failure = 0; failure < 3; failure += 1) {
      expect((await attempt(username)).status).toBe(401);
    }
    expect((await attempt(username)).status).toBe(429);
    return (await attempt(email)).status;
  }

  it("never tells whether an e-mail is a paused username's", async () => {
    const ofThatAccount = await pairingProbe('paired', 'paired@agency.tn');
    const ofNobody = await pairingProbe('unpaired', 'unpaired@agency.tn');
    expect(ofThatAccount).toBe(ofNobody);
    expect(ofThatAccount).toBe(401);
  });

  it('still pauses a burst on an account by its e-mail, the right password included', async () => {
    for (let failure = 0; failure < 3; failure += 1) {
      expect((await attempt('Burst@Agency.tn ')).status).toBe(401);
    }
    expect((await attempt('burst@agency.tn', TEST_PASSWORD)).status).toBe(429);
  });

  it('starts both names of an account again once it signs in', async () => {
    const statusesOf = async (...names: string[]) => {
      const statuses: number[] = [];
      for (const name of names) statuses.push((await attempt(name)).status);
      return statuses;
    };
    const [username, email] = ['returning', 'returning@agency.tn'];
    expect(await statusesOf(username, username, email, email)).toEqual([401, 401, 401, 401]);
    expect((await attempt(username, TEST_PASSWORD)).status).toBe(200);
    // Three failures per name fit again, under either name.
    expect(await statusesOf(email, email, email, username, username, username)).toEqual([
      401, 401, 401, 401, 401, 401,
    ]);
    expect((await attempt(email, TEST_PASSWORD)).status).toBe(429);
  });
});
