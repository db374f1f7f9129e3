import { createTestContext, type TestContext } from '../../testing/test-context';
import { as, signedInUser, validClient, type SignedInUser } from '../../testing/admin-fixtures';
import { ActivityLogModel } from './activity-log.model';

let ctx: TestContext;
let admin: SignedInUser;
let editor: SignedInUser;
beforeAll(async () => {
  ctx = await createTestContext();
  admin = await signedInUser(ctx, 'admin');
  editor = await signedInUser(ctx, 'editor');
});
afterAll(async () => {
  await ctx.close();
});

describe('GET /api/admin/activity-logs', () => {
  it('lists entries newest first, paginated, filtered by actor', async () => {
    await ActivityLogModel.deleteMany({});
    const created = await as(ctx, editor).post('/api/admin/clients', validClient);
    await as(ctx, editor).put(`/api/admin/clients/${created.body.id}`, {
      ...validClient,
      status: 'active',
    });
    await as(ctx, admin).delete(`/api/admin/clients/${created.body.id}`);

    const all = await as(ctx, admin).get('/api/admin/activity-logs');
    expect(all.status).toBe(200);
    expect(all.body.total).toBe(3);
    expect(all.body.items.map((entry: { action: string }) => entry.action)).toEqual([
      'client.delete',
      'client.update',
      'client.create',
    ]);
    expect(all.body.items[2]).toEqual({
      id: expect.any(String),
      actor: { id: editor.id, username: editor.username },
      action: 'client.create',
      target: { type: 'client', id: created.body.id, label: 'Carthage Bakeries' },
      time: expect.any(String),
      ip: expect.stringMatching(/127\.0\.0\.1/),
      changes: expect.arrayContaining([{ field: 'companyName', after: 'Carthage Bakeries' }]),
    });

    const page = await as(ctx, admin).get('/api/admin/activity-logs?pageSize=1&page=3');
    expect(page.body).toMatchObject({
      total: 3,
      page: 3,
      pageSize: 1,
      items: [{ action: 'client.create' }],
    });
    const byEditor = await as(ctx, admin).get(`/api/admin/activity-logs?actor=${editor.id}`);
    expect(byEditor.body.total).toBe(2);
    const byAction = await as(ctx, admin).get('/api/admin/activity-logs?search=client.delete');
    expect(byAction.body.total).toBe(1);
  });

  it('records the fields a change touched, before and after, and never a password', async () => {
    await ActivityLogModel.deleteMany({});
    const created = await as(ctx, editor).post('/api/admin/clients', validClient);
    await as(ctx, editor).put(`/api/admin/clients/${created.body.id}`, {
      ...validClient,
      status: 'active',
      monthlyBudget: 2000,
    });
    const user = await as(ctx, admin).post('/api/admin/users', {
      username: 'diffed',
      email: 'diffed@agency.tn',
      role: 'viewer',
      password: 'a first long password',
    });
    await as(ctx, admin).put(`/api/admin/users/${user.body.id}`, {
      username: 'diffed',
      email: 'diffed@agency.tn',
      role: 'editor',
      password: 'a second long password',
    });

    const page = await as(ctx, admin).get('/api/admin/activity-logs?sort=time');
    const byAction = Object.fromEntries(
      (page.body.items as { action: string; changes?: unknown }[]).map((entry) => [
        entry.action,
        entry.changes,
      ]),
    );
    expect(byAction['client.update']).toEqual([
      { field: 'monthlyBudget', before: 1500.5, after: 2000 },
      { field: 'status', before: 'potential', after: 'active' },
    ]);
    expect(byAction['client.create']).toEqual(
      expect.arrayContaining([{ field: 'companyName', after: 'Carthage Bakeries' }]),
    );
    expect(byAction['user.update']).toEqual([
      { field: 'role', before: 'viewer', after: 'editor' },
      { field: 'password', redacted: true },
    ]);
    expect(byAction['user.create']).toEqual(
      expect.arrayContaining([{ field: 'password', redacted: true }]),
    );
    const stored = JSON.stringify(await ActivityLogModel.find({}).lean());
    expect(stored).not.toContain('long password');
    expect(stored).not.toContain('argon2');
  });

  it('writes nothing for a refused or failed change', async () => {
    await ActivityLogModel.deleteMany({});
    await as(ctx, editor).post('/api/admin/clients', { companyName: '' });
    await as(ctx, editor).post('/api/admin/users', { username: 'x' });
    expect(await ActivityLogModel.countDocuments()).toBe(0);
  });

  it('refuses a malformed actor id', async () => {
    const response = await as(ctx, admin).get('/api/admin/activity-logs?actor=me');
    expect(response.status).toBe(400);
    expect(response.body.error.fields).toEqual({ actor: 'Must be a valid id' });
  });
});
