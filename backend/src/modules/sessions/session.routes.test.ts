import jwt from 'jsonwebtoken';
import { Types } from 'mongoose';
import request from 'supertest';
import { createTestContext, type TestContext } from '../../testing/test-context';
import { TEST_PASSWORD, as, signedInUser, unknownId } from '../../testing/admin-fixtures';
import { ActivityLogModel } from '@agency/platform/testing/activity-models';
import { UserModel } from '@agency/platform/testing/users-models';
import { SessionModel } from './session.model';
import { deviceOf, newSessionId } from './session.service';

const CHROME_LINUX =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36';
const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
  await UserModel.init();
});
afterAll(async () => {
  await ctx.close();
});

async function signInFrom(username: string, userAgent: string): Promise<{ token: string }> {
  const response = await request(ctx.app.callback())
    .post('/api/admin/login')
    .set('User-Agent', userAgent)
    .send({ username, password: TEST_PASSWORD });
  expect(response.status).toBe(200);
  return { token: response.body.token as string };
}

const whoAmI = async (session: { token: string }) =>
  (await as(ctx, session).get('/api/admin/me')).status;

describe('a staff member’s own sessions', () => {
  it('lists each sign-in with its device, address and times, the current one first', async () => {
    const user = await signedInUser(ctx, 'editor');
    const laptop = await signInFrom(user.username, CHROME_LINUX);
    const phone = await signInFrom(user.username, SAFARI_IPHONE);

    const response = await as(ctx, phone).get('/api/admin/me/sessions');
    expect(response.status).toBe(200);
    const items = response.body.items as { device: string; current: boolean }[];
    expect(items).toHaveLength(3);
    expect(items[0]).toEqual({
      id: expect.stringMatching(/^[A-Za-z0-9_-]{32}$/),
      device: 'Safari 17 on iOS',
      ip: expect.stringContaining('127.0.0.1'),
      signedInAt: expect.any(String),
      lastSeenAt: expect.any(String),
      expiresAt: expect.any(String),
      current: true,
    });
    expect(items.filter((item) => item.current)).toHaveLength(1);
    expect(items.map((item) => item.device)).toContain('Chrome 140 on Linux');
    expect(await whoAmI(laptop)).toBe(200);
  });

  it('ends one session: its token stops working on the next request, the others go on', async () => {
    const user = await signedInUser(ctx, 'viewer');
    const laptop = await signInFrom(user.username, CHROME_LINUX);
    const phone = await signInFrom(user.username, SAFARI_IPHONE);
    const list = await as(ctx, phone).get('/api/admin/me/sessions');
    const laptopSession = (list.body.items as { id: string; device: string }[]).find(
      (item) => item.device === 'Chrome 140 on Linux',
    );

    const ended = await as(ctx, phone).delete(`/api/admin/me/sessions/${laptopSession?.id}`);
    expect(ended.status).toBe(204);
    expect(await whoAmI(laptop)).toBe(401);
    expect(await whoAmI(phone)).toBe(200);
    expect(await whoAmI(user)).toBe(200);
    expect(
      (await as(ctx, phone).delete(`/api/admin/me/sessions/${laptopSession?.id}`)).status,
    ).toBe(404);
    for (const malformed of ['not-an-id', unknownId(), `${newSessionId()}x`, '%00']) {
      const refused = await as(ctx, phone).delete(`/api/admin/me/sessions/${malformed}`);
      expect(refused.status).toBe(400);
      expect(refused.body.error.fields).toEqual({ id: expect.any(String) });
    }
  });

  it("never ends another user's session", async () => {
    const owner = await signedInUser(ctx, 'viewer');
    const other = await signedInUser(ctx, 'admin');
    const ownerSessions = await as(ctx, owner).get('/api/admin/me/sessions');
    const id = (ownerSessions.body.items as { id: string }[])[0]?.id;
    expect((await as(ctx, other).delete(`/api/admin/me/sessions/${id}`)).status).toBe(404);
    expect(await whoAmI(owner)).toBe(200);
    expect((await as(ctx, other).delete(`/api/admin/me/sessions/${newSessionId()}`)).status).toBe(
      404,
    );
  });

  it('ends every other session at once with the password and signs out this one, each logged', async () => {
    const user = await signedInUser(ctx, 'manager');
    const laptop = await signInFrom(user.username, CHROME_LINUX);
    const phone = await signInFrom(user.username, SAFARI_IPHONE);

    const ended = await as(ctx, phone).post('/api/admin/me/sessions/end-others', {
      password: TEST_PASSWORD,
    });
    expect(ended.status).toBe(204);
    expect(await whoAmI(laptop)).toBe(401);
    expect(await whoAmI(user)).toBe(401);
    expect(await whoAmI(phone)).toBe(200);

    expect((await as(ctx, phone).post('/api/admin/logout')).status).toBe(204);
    expect(await whoAmI(phone)).toBe(401);
    const actions = (await ActivityLogModel.find({ 'actor.id': user.id }).lean()).map(
      (entry) => entry.action,
    );
    expect(actions).toEqual(expect.arrayContaining(['auth.sessions-end-others', 'auth.logout']));
  });
});

describe('session ids', () => {
  const sessionIdOf = (session: { token: string }) =>
    (jwt.decode(session.token) as { sid: string }).sid;
  const sharedPrefix = (a: string, b: string) => {
    let length = 0;
    while (length < a.length && a[length] === b[length]) length += 1;
    return length;
  };

  it('are random: sign-ins one after another share no time-ordered prefix, and none is an ObjectId', async () => {
    const user = await signedInUser(ctx, 'viewer');
    const sessions: { token: string }[] = [user];
    for (let i = 0; i < 5; i += 1) sessions.push(await signInFrom(user.username, CHROME_LINUX));
    const ids = sessions.map(sessionIdOf);

    for (const id of ids) {
      expect(id).toMatch(/^[A-Za-z0-9_-]{32}$/);
      expect(Types.ObjectId.isValid(id)).toBe(false);
      expect(await SessionModel.exists({ _id: id })).toBeTruthy();
    }
    // ObjectIds made within a second share their first 8 hex digits (the time).
    ids.forEach((id, index) =>
      ids.slice(index + 1).forEach((other) => expect(sharedPrefix(id, other)).toBeLessThan(4)),
    );
  });

  it('no longer accepts a session stored under an ObjectId, even in a genuinely signed token', async () => {
    const user = await signedInUser(ctx, 'editor');
    const { ver } = jwt.decode(user.token) as { ver: number };
    const oldId = new Types.ObjectId();
    const now = new Date();
    await SessionModel.collection.insertOne({
      _id: oldId,
      userId: user.id,
      tokenVersion: ver,
      ip: '127.0.0.1',
      userAgent: CHROME_LINUX,
      signedInAt: now,
      lastSeenAt: now,
      expiresAt: new Date(now.getTime() + 3_600_000),
      endedAt: null,
    });
    const token = jwt.sign({ ver, sid: oldId.toHexString() }, ctx.config.auth.jwtSecret, {
      algorithm: 'HS256',
      subject: user.id,
      issuer: 'agency-api',
      audience: 'agency-admin',
      expiresIn: 600,
    });

    expect(await whoAmI({ token })).toBe(401);
    const listed = await as(ctx, user).get('/api/admin/me/sessions');
    expect((listed.body.items as { id: string }[]).map((item) => item.id)).toEqual([
      sessionIdOf(user),
    ]);
  });
});

describe('signing out everywhere else needs the password, not a session alone', () => {
  const endOthers = (session: { token: string }, body?: object) =>
    as(ctx, session).post('/api/admin/me/sessions/end-others', body);

  it('keeps every session when the proof is missing or wrong, and logs the wrong one', async () => {
    const owner = await signedInUser(ctx, 'editor');
    const thief = await signInFrom(owner.username, CHROME_LINUX);

    const none = await endOthers(thief, {});
    expect(none.status).toBe(400);
    expect(none.body.error.fields).toEqual({ password: 'Password is required' });
    const wrong = await endOthers(thief, { password: 'a guess' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error).toEqual({
      code: 'VALIDATION_FAILED',
      message: 'Some fields are invalid',
      fields: { password: 'The password is not correct' },
    });
    // Two-factor sign-in is off: a code proves nothing.
    const code = await endOthers(thief, { code: '123456' });
    expect(code.status).toBe(400);
    expect(code.body.error.fields).toEqual({ password: 'Password is required' });
    // The former call without a body is gone.
    expect((await as(ctx, thief).delete('/api/admin/me/sessions')).status).toBe(405);

    expect(await whoAmI(owner)).toBe(200);
    expect(await whoAmI(thief)).toBe(200);
    expect(
      await ActivityLogModel.countDocuments({
        action: 'auth.reauthentication-failed',
        'actor.id': owner.id,
      }),
    ).toBe(1);
    expect(
      await ActivityLogModel.exists({ action: 'auth.sessions-end-others', 'actor.id': owner.id }),
    ).toBeNull();
  });
});

describe("an admin ends all of a user's sessions", () => {
  it('revokes every token of that user at once and logs it; other roles may not', async () => {
    const admin = await signedInUser(ctx, 'admin');
    const target = await signedInUser(ctx, 'editor');
    const second = await signInFrom(target.username, CHROME_LINUX);

    const editor = await signedInUser(ctx, 'editor');
    expect((await as(ctx, editor).delete(`/api/admin/users/${target.id}/sessions`)).status).toBe(
      403,
    );
    expect(await whoAmI(target)).toBe(200);

    const response = await as(ctx, admin).delete(`/api/admin/users/${target.id}/sessions`);
    expect(response.status).toBe(204);
    expect(await whoAmI(target)).toBe(401);
    expect(await whoAmI(second)).toBe(401);
    expect(
      await ActivityLogModel.exists({
        action: 'user.sessions-end',
        'actor.id': admin.id,
        'target.id': target.id,
      }),
    ).toBeTruthy();
    expect((await as(ctx, admin).delete(`/api/admin/users/${unknownId()}/sessions`)).status).toBe(
      404,
    );
  });
});

describe('deviceOf', () => {
  it('names the browser and system, or says it does not know', () => {
    expect(deviceOf(CHROME_LINUX)).toBe('Chrome 140 on Linux');
    expect(deviceOf('')).toBe('Unknown device');
    expect(deviceOf('curl/8.5.0')).toBe('curl/8.5.0');
  });
});
