import { createTestContext, type TestContext } from '../../testing/test-context';
import { as, signedInUser, validClient, type SignedInUser } from '../../testing/admin-fixtures';
import { ActivityLogModel } from '@agency/platform/testing/activity-models';

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

    const byEditor = await as(ctx, admin).get(`/api/admin/activity-logs?actor=${editor.id}`);
    expect(byEditor.body.total).toBe(2);
    const byAction = await as(ctx, admin).get('/api/admin/activity-logs?search=client.delete');
    expect(byAction.body.total).toBe(1);
  });

  it('pages by position, newest first, each entry once, forwards and back', async () => {
    await ActivityLogModel.deleteMany({});
    const start = Date.parse('2026-03-01T08:00:00.000Z');
    // Two entries share a time: the id orders them, so no page repeats or skips one.
    await ActivityLogModel.insertMany(
      [0, 1, 2, 2, 3].map((minute, index) => ({
        actor: { id: editor.id, username: editor.username },
        action: 'client.update',
        target: { type: 'client', label: `client ${index}` },
        time: new Date(start + minute * 60_000),
        ip: '127.0.0.1',
      })),
    );
    const labels = (body: { items: { target: { label: string } }[] }) =>
      body.items.map((entry) => entry.target.label);

    const first = await as(ctx, admin).get('/api/admin/activity-logs?pageSize=2');
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ total: 5, totalKind: 'exact', pageSize: 2, previous: null });
    const second = await as(ctx, admin).get(
      `/api/admin/activity-logs?pageSize=2&after=${first.body.next}`,
    );
    const third = await as(ctx, admin).get(
      `/api/admin/activity-logs?pageSize=2&after=${second.body.next}`,
    );
    const all = [...labels(first.body), ...labels(second.body), ...labels(third.body)];
    expect(all).toHaveLength(5);
    expect(new Set(all).size).toBe(5);
    expect(all[0]).toBe('client 4');
    expect(all[4]).toBe('client 0');
    expect(third.body.next).toBeNull();

    const back = await as(ctx, admin).get(
      `/api/admin/activity-logs?pageSize=2&before=${second.body.previous}`,
    );
    expect(labels(back.body)).toEqual(labels(first.body));
  });

  it('filters by who acted, what they did and when, together', async () => {
    await ActivityLogModel.deleteMany({});
    const entry = (action: string, actor: SignedInUser, time: string) => ({
      actor: { id: actor.id, username: actor.username },
      action,
      target: { type: 'client', label: `${action} ${time}` },
      time: new Date(time),
      ip: '127.0.0.1',
    });
    await ActivityLogModel.insertMany([
      entry('client.update', editor, '2026-03-01T10:00:00.000Z'),
      entry('client.update', editor, '2026-03-02T10:00:00.000Z'),
      entry('client.delete', editor, '2026-03-02T11:00:00.000Z'),
      entry('client.update', admin, '2026-03-02T12:00:00.000Z'),
      entry('client.update', editor, '2026-03-03T10:00:00.000Z'),
    ]);

    const response = await as(ctx, admin).get('/api/admin/activity-logs').query({
      actor: editor.id,
      action: 'client.update',
      from: '2026-03-02T00:00:00.000Z',
      to: '2026-03-03T00:00:00.000Z',
    });
    expect(response.status).toBe(200);
    expect(response.body.total).toBe(1);
    expect(response.body.items).toEqual([
      expect.objectContaining({
        action: 'client.update',
        actor: { id: editor.id, username: editor.username },
        time: '2026-03-02T10:00:00.000Z',
      }),
    ]);
    // `from` is included and `to` left out: a day is [midnight, next midnight).
    const day = await as(ctx, admin)
      .get('/api/admin/activity-logs')
      .query({ from: '2026-03-03T10:00:00.000Z', to: '2026-03-03T10:00:00.001Z' });
    expect(day.body.total).toBe(1);
    const byAction = await as(ctx, admin).get('/api/admin/activity-logs?action=client.delete');
    expect(byAction.body.items.map((item: { action: string }) => item.action)).toEqual([
      'client.delete',
    ]);
  });

  it.each([
    ['action=client.explode', 'action', /Must be one of/],
    ['action[$ne]=client.update', 'action', /^Must be text$/],
    ['actor[$ne]=x', 'actor', /^Must be text$/],
    ['$where=1', '$where', /^Must be text$/],
    ['actor=a&actor=b', 'actor', /^Must be text$/],
    ['from=yesterday', 'from', /date/i],
    ['to=2026-13-01T00:00:00Z', 'to', /date/i],
    ['from=2026-03-02T00:00:00Z&to=2026-03-01T00:00:00Z', 'to', /after the start/],
    ['from=2026-03-02T00:00:00Z&to=2026-03-02T00:00:00Z', 'to', /after the start/],
    ['after=bm90IGEgcG9zaXRpb24', 'after', /start again/],
  ])('refuses %s with a 400 naming %s', async (query, field, reason) => {
    await ActivityLogModel.deleteMany({});
    await ActivityLogModel.create({
      actor: { id: editor.id, username: editor.username },
      action: 'client.update',
      ip: '127.0.0.1',
    });

    const response = await as(ctx, admin).get(`/api/admin/activity-logs?${query}`);

    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('VALIDATION_FAILED');
    expect(response.body.error.fields[field]).toMatch(reason);
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
