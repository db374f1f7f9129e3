import request from 'supertest';
import { UserModel } from '@agency/platform/testing/users-models';
import { createTestContext, type TestContext } from '../../testing/test-context';
import { TEST_PASSWORD } from '../../testing/admin-fixtures';
import { createUser, ensureDemoAdmin } from '../users';

const DEMO = { username: 'demo', email: 'demo@agency.test', password: 'demo-password-for-tests' };
const TWO_FACTOR_FOR_ADMINS = {
  TWO_FACTOR_REQUIRED_ROLES: 'admin',
  DEMO_ADMIN_USERNAME: DEMO.username,
  DEMO_ADMIN_EMAIL: DEMO.email,
  DEMO_ADMIN_PASSWORD: DEMO.password,
};

let demoMode: TestContext;
let realMode: TestContext;
beforeAll(async () => {
  demoMode = await createTestContext({ env: { ...TWO_FACTOR_FOR_ADMINS, DEMO_MODE: 'true' } });
  realMode = await createTestContext({ env: { ...TWO_FACTOR_FOR_ADMINS, DEMO_MODE: 'false' } });
  await UserModel.init();
  await ensureDemoAdmin(demoMode.config.demo);
  await createUser({
    username: 'other-admin',
    email: 'other-admin@agency.test',
    role: 'admin',
    password: TEST_PASSWORD,
  });
});
afterAll(async () => {
  await demoMode.close();
  await realMode.close();
});

const login = (ctx: TestContext, username: string, password: string) =>
  request(ctx.app.callback()).post('/api/admin/login').send({ username, password });

describe('the demo admin in demo mode', () => {
  it('signs in with the password alone, by username or e-mail, and two-factor is not required of it', async () => {
    for (const name of [DEMO.username, DEMO.email.toUpperCase()]) {
      const response = await login(demoMode, name, DEMO.password);
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ success: true, user: { username: 'demo' } });
    }
    const { token } = (await login(demoMode, DEMO.username, DEMO.password)).body as {
      token: string;
    };
    const status = await request(demoMode.app.callback())
      .get('/api/admin/me/two-factor')
      .set('Authorization', `Bearer ${token}`);
    expect(status.status).toBe(200);
    expect(status.body).toMatchObject({ enabled: false, required: false });
  });

  it('keeps the real rules for every other admin', async () => {
    const response = await login(demoMode, 'other-admin', TEST_PASSWORD);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ success: false, secondFactor: 'enrol' });
  });

  it('must enrol like any admin once demo mode is off', async () => {
    const response = await login(realMode, DEMO.username, DEMO.password);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ success: false, secondFactor: 'enrol' });
  });
});
