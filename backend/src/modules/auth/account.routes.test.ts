import request from 'supertest';
import { createTestContext, type TestContext } from '../../testing/test-context';
import { TEST_PASSWORD, as, signedInUser } from '../../testing/admin-fixtures';
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

describe('GET /api/admin/login-options', () => {
  it('tells the sign-in page there is no demo account outside demo mode, without a token', async () => {
    const response = await request(ctx.app.callback()).get('/api/admin/login-options');

    expect(response.status).toBe(200);
    expect(response.body).toEqual({ demo: null });
    expect(response.headers['cache-control']).toBe('no-store');
  });

  it('gives the demo account in demo mode', async () => {
    const demo = await createTestContext({
      env: {
        DEMO_MODE: 'true',
        DEMO_ADMIN_USERNAME: 'showcase',
        DEMO_ADMIN_PASSWORD: 'showcase-password',
      },
    });
    try {
      const response = await request(demo.app.callback()).get('/api/admin/login-options');
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        demo: { username: 'showcase', password: 'showcase-password' },
      });
    } finally {
      await demo.close();
    }
  });
});

describe('PUT /api/admin/me/password', () => {
  const NEW_PASSWORD = 'a completely new passphrase';
  const change = (token: string | null, body: object) =>
    as(ctx, token ? { token } : null).put('/api/admin/me/password', body);
  const signIn = (username: string, password: string) =>
    request(ctx.app.callback()).post('/api/admin/login').send({ username, password });

  it('sets the new password, ends older sessions, answers a fresh token and logs it', async () => {
    const viewer = await signedInUser(ctx, 'viewer');
    const otherTab = (await signIn(viewer.username, TEST_PASSWORD)).body.token as string;

    const response = await change(viewer.token, {
      currentPassword: TEST_PASSWORD,
      newPassword: NEW_PASSWORD,
    });

    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      token: expect.any(String),
      expiresAt: expect.any(String),
      user: { id: viewer.id, username: viewer.username, email: expect.any(String), role: 'viewer' },
    });
    const fresh = response.body.token as string;
    expect((await as(ctx, { token: fresh }).get('/api/admin/me')).status).toBe(200);
    for (const revoked of [viewer.token, otherTab]) {
      expect((await as(ctx, { token: revoked }).get('/api/admin/me')).status).toBe(401);
    }
    expect((await signIn(viewer.username, TEST_PASSWORD)).status).toBe(401);
    expect((await signIn(viewer.username, NEW_PASSWORD)).status).toBe(200);
    const entry = await ActivityLogModel.findOne({
      action: 'auth.password-change',
      'actor.id': viewer.id,
    }).lean();
    expect(entry?.target).toMatchObject({ type: 'user', id: viewer.id, label: viewer.username });
  });

  it('refuses a wrong current password, in the language asked, and keeps the old one', async () => {
    const editor = await signedInUser(ctx, 'editor');

    const response = await change(editor.token, {
      currentPassword: 'not my password',
      newPassword: NEW_PASSWORD,
    }).set('Accept-Language', 'fr');

    expect(response.status).toBe(400);
    expect(response.body.error).toEqual({
      code: 'VALIDATION_FAILED',
      message: 'Some fields are invalid',
      fields: { currentPassword: "Le mot de passe actuel n'est pas correct" },
    });
    expect((await as(ctx, editor).get('/api/admin/me')).status).toBe(200);
    expect((await signIn(editor.username, TEST_PASSWORD)).status).toBe(200);
  });

  it('refuses a new password that is the current one, too short, or missing', async () => {
    const manager = await signedInUser(ctx, 'manager');
    const same = await change(manager.token, {
      currentPassword: TEST_PASSWORD,
      newPassword: TEST_PASSWORD,
    });
    expect(same.status).toBe(400);
    expect(same.body.error.fields).toEqual({
      newPassword: 'The new password must differ from the current one',
    });

    const short = await change(manager.token, {
      currentPassword: TEST_PASSWORD,
      newPassword: 'short',
    });
    expect(short.status).toBe(400);
    expect(short.body.error.fields).toEqual({
      newPassword: 'Must be at least 12 characters long',
    });

    const missing = await change(manager.token, { newPassword: { $ne: null } });
    expect(missing.status).toBe(400);
    expect(Object.keys(missing.body.error.fields as object).sort()).toEqual([
      'currentPassword',
      'newPassword',
    ]);
    expect((await as(ctx, manager).get('/api/admin/me')).status).toBe(200);
  });

  it('answers 401 without a valid token', async () => {
    const response = await change(null, {
      currentPassword: TEST_PASSWORD,
      newPassword: NEW_PASSWORD,
    });
    expect(response.status).toBe(401);
    expect(response.body.error.code).toBe('UNAUTHENTICATED');
  });

  it('counts wrong current passwords as failed sign-ins of the account', async () => {
    const limited = await createTestContext({
      env: { LOGIN_MAX_FAILURES_PER_ACCOUNT: '2', LOGIN_ACCOUNT_WINDOW_SECONDS: '600' },
    });
    try {
      const admin = await signedInUser(limited, 'admin');
      const guess = () =>
        as(limited, admin).put('/api/admin/me/password', {
          currentPassword: 'a wrong guess',
          newPassword: NEW_PASSWORD,
        });
      expect((await guess()).status).toBe(400);
      expect((await guess()).status).toBe(400);

      const paused = await guess();
      expect(paused.status).toBe(429);
      expect(paused.body.error.code).toBe('RATE_LIMITED');
      const signIn = await request(limited.app.callback())
        .post('/api/admin/login')
        .send({ username: admin.username, password: TEST_PASSWORD });
      expect(signIn.status).toBe(429);
    } finally {
      await limited.close();
    }
  });
});
