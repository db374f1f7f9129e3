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
