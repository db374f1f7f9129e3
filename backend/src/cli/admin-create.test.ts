import request from 'supertest';
import type { Role } from '@agency/contracts';
import { createTestContext, type TestContext } from '../testing/test-context';
import { createUser, ensureBootstrapAdmin, ensureDemoAdmin } from '../modules/users';
import { UserModel } from '@agency/platform/testing/users-models';
import {
  collectNewUser,
  describeFailure,
  parseAdminCreateArgs,
  type Prompter,
} from './admin-create';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
  await UserModel.init();
});
afterAll(async () => {
  await ctx.close();
});
beforeEach(async () => {
  await UserModel.deleteMany({});
});

function recordingPrompter(answers: Record<string, string>) {
  const asked: string[] = [];
  const answer = async (question: string) => {
    asked.push(question);
    const found = Object.entries(answers).find(([prefix]) => question.startsWith(prefix));
    if (!found) throw new Error(`unexpected question ${question}`);
    return found[1];
  };
  const prompter: Prompter = {
    text: answer,
    secret: answer,
    choice: async (question) => (await answer(question)) as Role,
  };
  return { prompter, asked };
}

const signIn = (username: string, password: string) =>
  request(ctx.app.callback()).post('/api/admin/login').send({ username, password });

describe('npm run admin:create', () => {
  it('asks only for what the flags leave out, then the new admin signs in', async () => {
    const { prompter, asked } = recordingPrompter({
      'E-mail': 'owner@agency.tn',
      Role: 'admin',
      Password: 'the owner password',
    });
    const input = await collectNewUser(parseAdminCreateArgs(['--username', 'owner']), prompter);
    expect(asked).toEqual(['E-mail', 'Role', 'Password (12 characters or more)']);
    await createUser(input);

    const response = await signIn('owner', 'the owner password');
    expect(response.status).toBe(200);
    expect(response.body.user).toMatchObject({ username: 'owner', role: 'admin' });
  });

  it('takes every value from flags without asking, and names a missing flag when it cannot ask', async () => {
    const args = parseAdminCreateArgs([
      '--username',
      'ops',
      '--email',
      'ops@agency.tn',
      '--role',
      'manager',
      '--password',
      'a long enough password',
    ]);
    expect(await collectNewUser(args, undefined)).toEqual({
      username: 'ops',
      email: 'ops@agency.tn',
      role: 'manager',
      password: 'a long enough password',
    });
    await expect(
      collectNewUser(parseAdminCreateArgs(['--username', 'ops']), undefined),
    ).rejects.toThrow('--email is required when no terminal is attached');
  });

  it('refuses what the API would refuse, with the reasons', async () => {
    const args = parseAdminCreateArgs([
      '--username',
      'bad name',
      '--email',
      'x',
      '--password',
      'short',
    ]);
    const failure = await collectNewUser(args, undefined).catch((error: unknown) =>
      describeFailure(error),
    );
    expect(failure).toBe(
      'username: Use letters, digits, dots, dashes or underscores only; email: Please enter a valid email address; password: Must be at least 12 characters long',
    );
    await createUser({
      username: 'taken',
      email: 'taken@agency.tn',
      role: 'admin',
      password: 'a long enough password',
    });
    const taken = await createUser({
      username: 'taken',
      email: 'new@agency.tn',
      role: 'admin',
      password: 'a long enough password',
    }).catch((error: unknown) => describeFailure(error));
    expect(taken).toBe(
      'A user with this username or e-mail already exists: This username is taken',
    );
  });
});

describe('the first admin from bootstrap variables, and the demo admin', () => {
  it('creates the bootstrap admin only while no admin exists, and it signs in', async () => {
    const first = {
      username: 'founder',
      email: 'founder@agency.tn',
      password: 'the founder password',
    };
    expect(await ensureBootstrapAdmin(first)).toBe(true);
    expect(await ensureBootstrapAdmin({ ...first, password: 'a different password' })).toBe(false);
    expect(await UserModel.countDocuments()).toBe(1);

    expect((await signIn('founder', 'the founder password')).status).toBe(200);
    expect((await signIn('founder', 'a different password')).status).toBe(401);
  });

  it('lets API replicas that start together create the bootstrap admin once, all starting', async () => {
    const admin = { username: 'owner', email: 'owner@agency.tn', password: 'the owner password' };
    const created = await Promise.all([1, 2, 3].map(() => ensureBootstrapAdmin(admin)));

    expect(created.filter(Boolean)).toEqual([true]);
    expect(await UserModel.countDocuments({ username: 'owner' })).toBe(1);
  });

  it('lets the demo admin that npm start prints sign in', async () => {
    const demo = {
      username: 'demo',
      email: 'demo@agency.local',
      password: 'demo-password-change-me',
    };
    await ensureDemoAdmin(demo);
    const response = await signIn('demo', demo.password);
    expect(response.status).toBe(200);
    expect(response.body.user).toMatchObject({ username: 'demo', role: 'admin' });
    const me = await request(ctx.app.callback())
      .get('/api/admin/me')
      .set('Authorization', `Bearer ${response.body.token}`);
    expect(me.status).toBe(200);
  });
});
