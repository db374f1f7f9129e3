import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import jwt from 'jsonwebtoken';
import request from 'supertest';
import { signConfirmationToken, signUnsubscribeToken } from '@agency/platform';
import { SubscriberModel } from '@agency/platform/testing/audience-models';
import { UserModel } from '@agency/platform/testing/users-models';
import { createTestContext, type TestContext } from './testing/test-context';
import { as, signedInUser } from './testing/admin-fixtures';

/**
 * The API as `npm start` runs it: development mode, no JWT_SECRET or
 * MAIL_LINK_SECRET given, a data folder. The development secrets older
 * releases had in their source are public: nothing signed with them passes.
 */
const PUBLISHED_JWT_SECRET = 'development-only-jwt-secret-never-use-in-production';
const PUBLISHED_LINK_SECRET = 'development-only-mail-link-secret';

const dataDir = mkdtempSync(join(tmpdir(), 'agency-development-secrets-'));
/** Blank is unset: the values the test context would give are taken away. */
const developmentDefaults = {
  NODE_ENV: 'development',
  JWT_SECRET: '',
  MAIL_LINK_SECRET: '',
  DATA_DIR: dataDir,
};

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext({ env: developmentDefaults });
  await Promise.all([UserModel.init(), SubscriberModel.init()]);
});
afterAll(async () => {
  await ctx.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** A token with the claims of a real session, signed with `secret`. */
function resigned(token: string, secret: string): string {
  const { sub, ver, sid } = jwt.decode(token) as { sub: string; ver: number; sid: string };
  return jwt.sign({ ver, sid }, secret, {
    algorithm: 'HS256',
    subject: sub,
    issuer: 'agency-api',
    audience: 'agency-admin',
    expiresIn: 600,
  });
}

describe('an API started with the development defaults', () => {
  it('refuses an admin token signed with the published development secret', async () => {
    const admin = await signedInUser(ctx, 'admin');

    const forged = resigned(admin.token, PUBLISHED_JWT_SECRET);
    expect((await as(ctx, { token: forged }).get('/api/admin/me')).status).toBe(401);

    // The same claims under the installation's own secret stand: only the key differs.
    const genuine = await as(ctx, { token: resigned(admin.token, ctx.config.auth.jwtSecret) }).get(
      '/api/admin/me',
    );
    expect(genuine.status).toBe(200);
    expect(genuine.body.user.role).toBe('admin');
  });

  it('keeps signed-in staff signed in across a restart with the same data folder', async () => {
    const editor = await signedInUser(ctx, 'editor');
    const restarted = await createTestContext({ env: developmentDefaults });
    try {
      expect(restarted.config.auth.jwtSecret).toBe(ctx.config.auth.jwtSecret);
      expect(restarted.config.mailLinkSecret).toBe(ctx.config.mailLinkSecret);
      expect((await as(restarted, editor).get('/api/admin/me')).status).toBe(200);
    } finally {
      await restarted.close();
    }
  });

  it('refuses an unsubscribe link signed with the published development secret', async () => {
    const email = 'stays@example.tn';
    await SubscriberModel.create({ email, status: 'confirmed', locale: 'en' });
    const unsubscribe = (token: string) =>
      request(ctx.app.callback()).post('/api/newsletter/unsubscribe').send({ token });

    expect((await unsubscribe(signUnsubscribeToken(email, PUBLISHED_LINK_SECRET))).status).toBe(
      404,
    );
    expect((await SubscriberModel.findOne({ email }).lean())?.status).toBe('confirmed');

    const genuine = await unsubscribe(signUnsubscribeToken(email, ctx.config.mailLinkSecret));
    expect(genuine.status).toBe(200);
    expect((await SubscriberModel.findOne({ email }).lean())?.status).toBe('unsubscribed');
  });

  it('refuses a confirmation link signed with the published development secret', async () => {
    const subscriber = await SubscriberModel.create({
      email: 'unconfirmed@example.tn',
      status: 'pending',
      locale: 'en',
    });
    const forged = signConfirmationToken(String(subscriber._id), PUBLISHED_LINK_SECRET);

    const response = await request(ctx.app.callback())
      .post('/api/newsletter/confirm')
      .send({ token: forged });
    expect(response.status).toBe(404);
    expect((await SubscriberModel.findById(subscriber._id).lean())?.status).toBe('pending');

    const genuine = signConfirmationToken(String(subscriber._id), ctx.config.mailLinkSecret);
    expect(
      (await request(ctx.app.callback()).post('/api/newsletter/confirm').send({ token: genuine }))
        .status,
    ).toBe(200);
  });
});
