import type { Role } from '@agency/contracts';
import { ListMemberModel, MailingListModel, SuppressionModel } from '@agency/platform';
import { createTestContext, type TestContext } from '../../testing/test-context';
import { as, oneUserPerRole, unknownId, type SignedInUser } from '../../testing/admin-fixtures';

let ctx: TestContext;
let users: Record<Role, SignedInUser>;

beforeAll(async () => {
  ctx = await createTestContext();
  users = await oneUserPerRole(ctx);
});
afterAll(async () => {
  await ctx.close();
});

const manager = () => as(ctx, users.manager);

describe('mailing lists', () => {
  it('creates, renames and lists them, refusing bad input with the field', async () => {
    const created = await manager().post('/api/admin/lists', {
      name: 'Expo guests',
      description: 'Met at the spring expo',
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'Expo guests', memberCount: 0 });
    const id = created.body.id as string;

    const renamed = await manager().put(`/api/admin/lists/${id}`, { name: 'Expo 2026' });
    expect(renamed.status).toBe(200);
    expect(renamed.body.name).toBe('Expo 2026');

    const missing = await manager().post('/api/admin/lists', { description: 'x' });
    expect(missing.status).toBe(400);
    expect(Object.keys(missing.body.error.fields)).toEqual(['name']);
    const injected = await manager().post('/api/admin/lists', { name: { $ne: null } });
    expect(injected.status).toBe(400);
    expect((await manager().get('/api/admin/lists?sort=secret')).status).toBe(400);
    expect((await manager().get(`/api/admin/lists/${unknownId()}`)).status).toBe(404);

    const page = await as(ctx, users.viewer).get('/api/admin/lists?search=expo');
    expect(page.status).toBe(200);
    expect(page.body.items.map((list: { name: string }) => list.name)).toContain('Expo 2026');
  });

  it('adds a person once with a staff consent record, shows who is excluded, and removes them', async () => {
    const { body: list } = await manager().post('/api/admin/lists', { name: 'Gala' });
    const add = (email: string) =>
      manager().post(`/api/admin/lists/${list.id}/members`, { email, firstName: 'Rim' });
    const added = await add('Rim@Example.TN');
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({
      key: 'rim@example.tn',
      consent: { basis: 'staff', by: { username: users.manager.username } },
      excluded: false,
    });
    expect((await add('rim@example.tn')).status).toBe(409);
    for (const malformed of ['rim.@example.tn', '.rim@example.tn', 'rim@-example.tn']) {
      const refused = await add(malformed);
      expect(refused.status).toBe(400);
      expect(refused.body.error.fields).toEqual({ email: 'Please enter a valid email address' });
    }

    await SuppressionModel.create({
      _id: 'gone@example.tn',
      email: 'gone@example.tn',
      reason: 'complaint',
      source: 'postmark',
      at: new Date(),
    });
    await add('gone@example.tn');
    const members = await as(ctx, users.viewer).get(`/api/admin/lists/${list.id}/members`);
    expect(
      members.body.items.map(({ key, excluded }: { key: string; excluded: boolean }) => [
        key,
        excluded,
      ]),
    ).toEqual([
      ['gone@example.tn', true],
      ['rim@example.tn', false],
    ]);
    expect((await MailingListModel.findById(list.id).lean())?.memberCount).toBe(2);

    const removed = await manager().delete(`/api/admin/lists/${list.id}/members/RIM%40example.tn`);
    expect(removed.status).toBe(204);
    expect(await ListMemberModel.countDocuments({ list: list.id })).toBe(1);
    expect((await MailingListModel.findById(list.id).lean())?.memberCount).toBe(1);
  });

  it('deletes a list with its memberships', async () => {
    const { body: list } = await manager().post('/api/admin/lists', { name: 'Old fair' });
    await manager().post(`/api/admin/lists/${list.id}/members`, { email: 'a@example.tn' });
    expect((await manager().delete(`/api/admin/lists/${list.id}`)).status).toBe(204);
    expect(await ListMemberModel.countDocuments({ list: list.id })).toBe(0);
    expect((await manager().get(`/api/admin/lists/${list.id}`)).status).toBe(404);
  });

  it('lets everyone signed in read lists, and only managers and admins change them', async () => {
    const { body: list } = await manager().post('/api/admin/lists', { name: 'Readers' });
    expect((await as(ctx, null).get('/api/admin/lists')).status).toBe(401);
    for (const role of ['viewer', 'editor'] as const) {
      const user = as(ctx, users[role]);
      expect((await user.get(`/api/admin/lists/${list.id}`)).status).toBe(200);
      expect((await user.post('/api/admin/lists', { name: 'Nope' })).status).toBe(403);
      expect((await user.put(`/api/admin/lists/${list.id}`, { name: 'Nope' })).status).toBe(403);
      expect((await user.delete(`/api/admin/lists/${list.id}`)).status).toBe(403);
      expect(
        (await user.post(`/api/admin/lists/${list.id}/members`, { email: 'x@example.tn' })).status,
      ).toBe(403);
    }
    expect(
      (await as(ctx, users.admin).put(`/api/admin/lists/${list.id}`, { name: 'Ok' })).status,
    ).toBe(200);
  });
});
