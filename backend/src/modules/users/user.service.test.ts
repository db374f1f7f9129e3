import { createTestContext, type TestContext } from '../../testing/test-context';
import { UserModel } from '@agency/platform/testing/users-models';
import { verifyPassword } from './password';
import { ensureDemoAdmin } from './user.service';

describe('ensureDemoAdmin', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(async () => {
    await ctx.close();
  });

  it('creates one admin whose argon2id hash matches the configured password, and updates it on restart', async () => {
    await ensureDemoAdmin({ username: 'Demo', email: 'Demo@Agency.local', password: 'first-pass' });
    await ensureDemoAdmin({
      username: 'demo',
      email: 'demo@agency.local',
      password: 'second-pass',
    });

    const users = await UserModel.find({}).lean();
    expect(users).toHaveLength(1);
    expect(users[0]).toMatchObject({ username: 'demo', email: 'demo@agency.local', role: 'admin' });
    expect(users[0]?.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,p=1,t=2\$/);
    expect(await verifyPassword(users[0]?.passwordHash ?? '', 'second-pass')).toBe(true);
    expect(await verifyPassword(users[0]?.passwordHash ?? '', 'first-pass')).toBe(false);
  });
});
