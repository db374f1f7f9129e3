import request from 'supertest';
import { createTestContext, type TestContext } from '../../testing/test-context';
import { TEST_PASSWORD, as, signedInUser } from '../../testing/admin-fixtures';
import { createUser } from '../users';
import { UserModel } from '@agency/platform/testing/users-models';
import { ActivityLogModel } from '@agency/platform/testing/activity-models';
import { totpCodeAt } from './two-factor';

let ctx: TestContext;
beforeAll(async () => {
  // Every request comes from one address: room for the refusals this file provokes.
  ctx = await createTestContext({
    env: { TWO_FACTOR_REQUIRED_ROLES: 'admin', LOGIN_MAX_FAILURES_PER_IP: '1000' },
  });
  await UserModel.init();
});
afterAll(async () => {
  await ctx.close();
});

const api = () => request(ctx.app.callback());
const login = (username: string, password = TEST_PASSWORD) =>
  api().post('/api/admin/login').send({ username, password });
const STEP_MS = 30_000;

let counter = 0;
async function newUser(role: 'admin' | 'viewer') {
  counter += 1;
  const username = `tf-${role}-${counter}`;
  const user = await createUser({
    username,
    email: `${username}@agency.test`,
    role,
    password: TEST_PASSWORD,
  });
  return { id: user.id, username };
}

/** Signs in an admin who must enrol, enrols with the code of now, and answers what that gave. */
async function enrolledAdmin() {
  const { id, username } = await newUser('admin');
  const first = await login(username);
  const { challenge } = first.body as { challenge: string };
  const setup = await api().post('/api/admin/login/enrolment').send({ challenge });
  const secret = setup.body.secret as string;
  const done = await api()
    .post('/api/admin/login/enrolment/confirm')
    .send({ challenge, code: totpCodeAt(secret, Date.now()) });
  return { id, username, secret, done };
}

describe('two-factor sign-in for a role that requires it', () => {
  it('takes a user without a second factor to enrolment after the password, then signs them in', async () => {
    const { id, username } = await newUser('admin');

    const first = await login(username);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      success: false,
      secondFactor: 'enrol',
      challenge: expect.any(String),
      challengeExpiresAt: expect.any(String),
    });
    // The challenge is no session.
    expect((await as(ctx, { token: first.body.challenge }).get('/api/admin/me')).status).toBe(401);

    const setup = await api()
      .post('/api/admin/login/enrolment')
      .send({ challenge: first.body.challenge });
    expect(setup.status).toBe(200);
    expect(setup.body.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(setup.body.otpauthUri).toBe(
      `otpauth://totp/Digital%20Agency:${username}?issuer=Digital%20Agency&secret=${setup.body.secret}&algorithm=SHA1&digits=6&period=30`,
    );

    const wrong = await api()
      .post('/api/admin/login/enrolment/confirm')
      .send({ challenge: first.body.challenge, code: '000000' });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual({
      success: false,
      error: {
        code: 'VALIDATION_FAILED',
        message: 'Some fields are invalid',
        fields: { code: 'This code is not valid' },
      },
    });

    const done = await api()
      .post('/api/admin/login/enrolment/confirm')
      .send({ challenge: first.body.challenge, code: totpCodeAt(setup.body.secret, Date.now()) });
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ success: true, user: { id, username, role: 'admin' } });
    expect(done.body.recoveryCodes).toHaveLength(10);
    for (const code of done.body.recoveryCodes as string[]) {
      expect(code).toMatch(/^[A-HJ-NP-Z2-9]{4}-[A-HJ-NP-Z2-9]{4}-[A-HJ-NP-Z2-9]{4}$/);
    }
    expect((await as(ctx, { token: done.body.token }).get('/api/admin/me')).status).toBe(200);

    // Stored encrypted and hashed: neither the secret nor a code is readable in the store.
    const stored = JSON.stringify(await UserModel.findById(id).lean());
    expect(stored).not.toContain(setup.body.secret);
    for (const code of done.body.recoveryCodes as string[]) {
      expect(stored).not.toContain(code.slice(5));
    }
    expect(stored).toContain('$argon2id$');
    // Nor in the activity log.
    const log = JSON.stringify(await ActivityLogModel.find({}).lean());
    expect(log).not.toContain(setup.body.secret);
    expect(
      await ActivityLogModel.exists({ action: 'auth.two-factor-enable', 'actor.id': id }),
    ).toBeTruthy();
  });

  it('asks an enrolled user for a code, accepts one step of drift and never the same code twice', async () => {
    const { username, secret } = await enrolledAdmin();
    const codeStep = async (code: string) => {
      const challenge = (await login(username)).body as { secondFactor: string; challenge: string };
      expect(challenge.secondFactor).toBe('totp');
      return api()
        .post('/api/admin/login/second-factor')
        .send({ challenge: challenge.challenge, code });
    };

    // The enrolment's own code was used: it does not sign in again.
    const replayOfEnrolment = await codeStep(totpCodeAt(secret, Date.now()));
    expect(replayOfEnrolment.status).toBe(401);
    expect(replayOfEnrolment.body.error.message).toBe('This code is not valid');

    const tooEarly = await codeStep(totpCodeAt(secret, Date.now() + 3 * STEP_MS));
    expect(tooEarly.status).toBe(401);

    const next = totpCodeAt(secret, Date.now() + STEP_MS);
    const signedIn = await codeStep(next);
    expect(signedIn.status).toBe(200);
    expect(signedIn.body).toMatchObject({ success: true, token: expect.any(String) });

    const replay = await codeStep(next);
    expect(replay.status).toBe(401);
  });

  it('signs in once with each recovery code and says how many are left', async () => {
    const { username, done } = await enrolledAdmin();
    const [code] = done.body.recoveryCodes as string[];
    const withCode = async (typed: string) => {
      const { challenge } = (await login(username)).body as { challenge: string };
      return api().post('/api/admin/login/second-factor').send({ challenge, code: typed });
    };

    const used = await withCode(` ${code?.toLowerCase().replace(/-/g, ' ')} `);
    expect(used.status).toBe(200);
    expect(used.body).toMatchObject({ success: true, recoveryCodesLeft: 9 });
    expect((await withCode(code ?? '')).status).toBe(401);
    expect((await withCode('AAAA-BBBB-CCCC')).status).toBe(401);
  });

  it('refuses a forged, expired or other-purpose challenge', async () => {
    const { username } = await enrolledAdmin();
    const { challenge } = (await login(username)).body as { challenge: string };
    const enrolWithTotpChallenge = await api()
      .post('/api/admin/login/enrolment')
      .send({ challenge });
    expect(enrolWithTotpChallenge.status).toBe(401);
    const forged = await api()
      .post('/api/admin/login/second-factor')
      .send({ challenge: `${challenge}x`, code: '123456' });
    expect(forged.status).toBe(401);
    const missing = await api()
      .post('/api/admin/login/second-factor')
      .send({ code: { $ne: 1 } });
    expect(missing.status).toBe(400);
    expect(Object.keys(missing.body.error.fields as object).sort()).toEqual(['challenge', 'code']);
  });

  it("lets an admin reset another user's second factor, ending their sessions, and logs it", async () => {
    const target = await enrolledAdmin();
    const helper = await enrolledAdmin();
    const response = await as(ctx, { token: helper.done.body.token }).delete(
      `/api/admin/users/${target.id}/two-factor`,
    );
    expect(response.status).toBe(204);
    expect((await as(ctx, { token: target.done.body.token }).get('/api/admin/me')).status).toBe(
      401,
    );
    expect((await login(target.username)).body.secondFactor).toBe('enrol');
    expect(
      await ActivityLogModel.exists({
        action: 'user.two-factor-reset',
        'actor.id': helper.id,
        'target.id': target.id,
      }),
    ).toBeTruthy();

    const viewer = await signedInUser(ctx, 'viewer');
    expect((await as(ctx, viewer).delete(`/api/admin/users/${target.id}/two-factor`)).status).toBe(
      403,
    );
  });

  it('never resets an admin’s own second factor from User Management: a session alone must not', async () => {
    const admin = await enrolledAdmin();
    const own = await as(ctx, { token: admin.done.body.token }).delete(
      `/api/admin/users/${admin.id}/two-factor`,
    );
    expect(own.status).toBe(409);
    expect(own.body.error.message).toBe(
      'Change your own two-factor sign-in in Settings; another admin can reset it here',
    );
    expect((await UserModel.findById(admin.id).lean())?.twoFactor).toBeTruthy();
    expect((await as(ctx, { token: admin.done.body.token }).get('/api/admin/me')).status).toBe(200);
  });
});

describe('two-factor sign-in a user chooses (Settings)', () => {
  it('enrols and renews with the password or a code, and turns it off with either', async () => {
    const viewer = await signedInUser(ctx, 'viewer');
    const me = as(ctx, viewer);
    expect((await me.get('/api/admin/me/two-factor')).body).toEqual({
      enabled: false,
      required: false,
      enabledAt: null,
      recoveryCodesLeft: 0,
    });
    const setup = await me.post('/api/admin/me/two-factor/setup', { password: TEST_PASSWORD });
    expect(setup.status).toBe(200);
    const confirmed = await me.post('/api/admin/me/two-factor/confirm', {
      code: totpCodeAt(setup.body.secret, Date.now()),
      password: TEST_PASSWORD,
    });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.recoveryCodes).toHaveLength(10);
    expect((await me.get('/api/admin/me/two-factor')).body).toMatchObject({
      enabled: true,
      required: false,
      recoveryCodesLeft: 10,
    });
    expect(
      (await me.post('/api/admin/me/two-factor/setup', { password: TEST_PASSWORD })).status,
    ).toBe(409);

    const byCode = await me.post('/api/admin/me/two-factor/recovery-codes', {
      code: totpCodeAt(setup.body.secret, Date.now() + STEP_MS),
    });
    expect(byCode.status).toBe(200);
    expect(byCode.body.recoveryCodes).not.toEqual(confirmed.body.recoveryCodes);
    // Both sent: the password is what is checked.
    const byPassword = await me.post('/api/admin/me/two-factor/recovery-codes', {
      password: TEST_PASSWORD,
      code: '000000',
    });
    expect(byPassword.status).toBe(200);
    expect(byPassword.body.recoveryCodes).not.toEqual(byCode.body.recoveryCodes);

    const wrongPassword = await me.post('/api/admin/me/two-factor/disable', { password: 'nope' });
    expect(wrongPassword.status).toBe(400);
    expect(wrongPassword.body.error.fields).toEqual({ password: 'The password is not correct' });
    const off = await me.post('/api/admin/me/two-factor/disable', { password: TEST_PASSWORD });
    expect(off.status).toBe(204);
    expect((await login(viewer.username)).body).toMatchObject({ success: true });
  });

  it('keeps the second factor of a role that requires it', async () => {
    const { done } = await enrolledAdmin();
    const response = await as(ctx, { token: done.body.token }).post(
      '/api/admin/me/two-factor/disable',
      { password: TEST_PASSWORD },
    );
    expect(response.status).toBe(409);
  });
});

/** A viewer who turned two-factor sign-in on in Settings, with the secret and a session. */
async function viewerWithTwoFactor() {
  const viewer = await signedInUser(ctx, 'viewer');
  const me = as(ctx, viewer);
  const setup = await me.post('/api/admin/me/two-factor/setup', { password: TEST_PASSWORD });
  // Kept: a test that reuses it must send this code, not the one of the
  // moment, which is another once a 30 s step has passed.
  const enrolmentCode = totpCodeAt(setup.body.secret as string, Date.now());
  const confirmed = await me.post('/api/admin/me/two-factor/confirm', {
    code: enrolmentCode,
    password: TEST_PASSWORD,
  });
  expect(confirmed.status).toBe(200);
  return { viewer, me, secret: setup.body.secret as string, enrolmentCode };
}

const refusedFor = async (userId: string) =>
  ActivityLogModel.countDocuments({
    action: 'auth.reauthentication-failed',
    'actor.id': userId,
  });

describe('two-factor changes need the password, not a session alone', () => {
  it('gives no secret and no recovery codes to a token alone: the owner still signs in with the password', async () => {
    const owner = await signedInUser(ctx, 'viewer');
    const thief = as(ctx, owner);

    const bare = await thief.post('/api/admin/me/two-factor/setup');
    expect(bare.status).toBe(400);
    expect(bare.body).not.toHaveProperty('secret');
    const setup = await thief.post('/api/admin/me/two-factor/setup', {});
    expect(setup.status).toBe(400);
    expect(setup.body.error.fields).toEqual({ password: 'Password is required' });
    expect(setup.body).not.toHaveProperty('secret');

    // Even with a set-up the owner began, the token alone cannot confirm it.
    const ownerSetup = await thief.post('/api/admin/me/two-factor/setup', {
      password: TEST_PASSWORD,
    });
    const code = totpCodeAt(ownerSetup.body.secret as string, Date.now());
    const confirm = await thief.post('/api/admin/me/two-factor/confirm', { code });
    expect(confirm.status).toBe(400);
    expect(confirm.body.error.fields).toEqual({ password: 'Password is required' });
    const guessed = await thief.post('/api/admin/me/two-factor/confirm', {
      code,
      password: 'a guess at the password',
    });
    expect(guessed.status).toBe(400);
    expect(guessed.body.error.fields).toEqual({ password: 'The password is not correct' });
    expect(guessed.body).not.toHaveProperty('recoveryCodes');

    expect((await thief.get('/api/admin/me/two-factor')).body).toMatchObject({ enabled: false });
    expect((await login(owner.username)).body).toMatchObject({ success: true });
    expect(await refusedFor(owner.id)).toBe(1);
  });

  it('starts a set-up only with the right password, and answers each refusal by its field', async () => {
    const viewer = await signedInUser(ctx, 'viewer');
    const me = as(ctx, viewer);
    const wrong = await me.post('/api/admin/me/two-factor/setup', { password: 'nope' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error).toEqual({
      code: 'VALIDATION_FAILED',
      message: 'Some fields are invalid',
      fields: { password: 'The password is not correct' },
    });
    // Nothing waits for a code after a refusal.
    const stored = await UserModel.findById(viewer.id).lean();
    expect(stored?.pendingTwoFactorSecret ?? null).toBeNull();
    const notText = await me.post('/api/admin/me/two-factor/setup', { password: { $ne: '' } });
    expect(notText.status).toBe(400);
    expect(Object.keys(notText.body.error.fields as object)).toEqual(['password']);
    const french = await me
      .post('/api/admin/me/two-factor/setup', { password: 'nope' })
      .set('Accept-Language', 'fr');
    expect(french.body.error.fields).toEqual({ password: "Le mot de passe n'est pas correct" });

    const right = await me.post('/api/admin/me/two-factor/setup', { password: TEST_PASSWORD });
    expect(right.status).toBe(200);
    expect(right.body.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(await refusedFor(viewer.id)).toBe(2);
  });

  it('renews recovery codes only with the password or a current, unused authenticator code', async () => {
    const { viewer, me, secret, enrolmentCode } = await viewerWithTwoFactor();
    const before = await UserModel.findById(viewer.id).lean();

    const none = await me.post('/api/admin/me/two-factor/recovery-codes', {});
    expect(none.status).toBe(400);
    expect(none.body.error.fields).toEqual({ password: 'Password is required' });
    const emptyCode = await me.post('/api/admin/me/two-factor/recovery-codes', { code: '' });
    expect(emptyCode.body.error.fields).toEqual({
      code: 'Enter the code from your authenticator app',
    });
    const wrongPassword = await me.post('/api/admin/me/two-factor/recovery-codes', {
      password: 'nope',
    });
    expect(wrongPassword.status).toBe(400);
    expect(wrongPassword.body.error.fields).toEqual({ password: 'The password is not correct' });
    // The code of the enrolment was used already.
    const usedCode = await me.post('/api/admin/me/two-factor/recovery-codes', {
      code: enrolmentCode,
    });
    expect(usedCode.status).toBe(400);
    expect(usedCode.body.error.fields).toEqual({ code: 'This code is not valid' });
    for (const refused of [none, emptyCode, wrongPassword, usedCode]) {
      expect(refused.body).not.toHaveProperty('recoveryCodes');
    }
    const after = await UserModel.findById(viewer.id).lean();
    expect(after?.twoFactor?.recoveryCodes).toEqual(before?.twoFactor?.recoveryCodes);
    expect(await refusedFor(viewer.id)).toBe(2);

    const right = await me.post('/api/admin/me/two-factor/recovery-codes', {
      password: TEST_PASSWORD,
    });
    expect(right.status).toBe(200);
    expect(right.body.recoveryCodes).toHaveLength(10);
    // Two-factor on: a current code also signs out everywhere else.
    const endOthers = await me.post('/api/admin/me/sessions/end-others', {
      code: totpCodeAt(secret, Date.now() + STEP_MS),
    });
    expect(endOthers.status).toBe(204);
  });

  it('takes no recovery code as proof: it is for signing in without the phone', async () => {
    const viewer = await signedInUser(ctx, 'viewer');
    const me = as(ctx, viewer);
    const setup = await me.post('/api/admin/me/two-factor/setup', { password: TEST_PASSWORD });
    const confirmed = await me.post('/api/admin/me/two-factor/confirm', {
      code: totpCodeAt(setup.body.secret as string, Date.now()),
      password: TEST_PASSWORD,
    });
    const [recovery] = confirmed.body.recoveryCodes as string[];
    const response = await me.post('/api/admin/me/two-factor/disable', { code: recovery });
    expect(response.status).toBe(400);
    expect(response.body.error.fields).toEqual({ code: 'This code is not valid' });
    expect((await me.get('/api/admin/me/two-factor')).body).toMatchObject({
      enabled: true,
      recoveryCodesLeft: 10,
    });
  });

  it('turns two-factor sign-in off only with a proof, and a code only while it is on', async () => {
    const { viewer, me, secret } = await viewerWithTwoFactor();
    const none = await me.post('/api/admin/me/two-factor/disable', {});
    expect(none.status).toBe(400);
    expect(none.body.error.fields).toEqual({ password: 'Password is required' });
    const wrongCode = await me.post('/api/admin/me/two-factor/disable', { code: '000000' });
    expect(wrongCode.status).toBe(400);
    expect(wrongCode.body.error.fields).toEqual({ code: 'This code is not valid' });
    expect((await me.get('/api/admin/me/two-factor')).body).toMatchObject({ enabled: true });

    const off = await me.post('/api/admin/me/two-factor/disable', {
      code: totpCodeAt(secret, Date.now() + STEP_MS),
    });
    expect(off.status).toBe(204);
    expect(
      await ActivityLogModel.exists({ action: 'auth.two-factor-disable', 'actor.id': viewer.id }),
    ).toBeTruthy();
    // Off now: a code from the old secret proves nothing, only the password does.
    const setup = await me.post('/api/admin/me/two-factor/setup', {
      code: totpCodeAt(secret, Date.now() + 2 * STEP_MS),
    });
    expect(setup.status).toBe(400);
    expect(setup.body.error.fields).toEqual({ password: 'Password is required' });
  });
});

describe('second-factor codes share the sign-in limits', () => {
  it('pauses an account after its allowance of wrong codes', async () => {
    const limited = await createTestContext({
      env: { TWO_FACTOR_REQUIRED_ROLES: 'admin', LOGIN_MAX_FAILURES_PER_ACCOUNT: '4' },
    });
    try {
      const { username } = await newUser('admin');
      const call = (path: string, body: object) =>
        request(limited.app.callback()).post(path).send(body);
      const { challenge } = (await call('/api/admin/login', { username, password: TEST_PASSWORD }))
        .body as { challenge: string };
      const setup = await call('/api/admin/login/enrolment', { challenge });
      const statuses: number[] = [];
      for (let attempt = 0; attempt < 4; attempt += 1) {
        const response = await call('/api/admin/login/enrolment/confirm', {
          challenge,
          code: '000000',
        });
        statuses.push(response.status);
      }
      // The password took one of the four; three wrong codes, then the pause.
      expect(statuses).toEqual([400, 400, 400, 429]);
      const right = await call('/api/admin/login/enrolment/confirm', {
        challenge,
        code: totpCodeAt(setup.body.secret as string, Date.now()),
      });
      expect(right.status).toBe(429);
    } finally {
      await limited.close();
    }
  });

  it('pauses the account after its allowance of wrong passwords given to Settings', async () => {
    const limited = await createTestContext({
      env: { LOGIN_MAX_FAILURES_PER_ACCOUNT: '3' },
    });
    try {
      const viewer = await signedInUser(limited, 'viewer');
      const me = as(limited, viewer);
      // A right password starts the count again, as a completed sign-in does.
      expect((await me.post('/api/admin/me/sessions/end-others', { password: 'x' })).status).toBe(
        400,
      );
      expect(
        (await me.post('/api/admin/me/sessions/end-others', { password: TEST_PASSWORD })).status,
      ).toBe(204);
      const statuses: number[] = [];
      for (let attempt = 0; attempt < 4; attempt += 1) {
        const response = await me.post('/api/admin/me/two-factor/setup', { password: 'guess' });
        statuses.push(response.status);
      }
      expect(statuses).toEqual([400, 400, 400, 429]);
      const right = await me.post('/api/admin/me/two-factor/setup', { password: TEST_PASSWORD });
      expect(right.status).toBe(429);
      // The sign-in page is paused for the account too: one allowance for both.
      const signIn = await request(limited.app.callback())
        .post('/api/admin/login')
        .send({ username: viewer.username, password: TEST_PASSWORD });
      expect(signIn.status).toBe(429);
    } finally {
      await limited.close();
    }
  });
});
