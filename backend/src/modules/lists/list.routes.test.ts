import { Queue } from 'bullmq';
import { Types } from 'mongoose';
import { QUEUE_NAMES, listDeleteJobId, type Role } from '@agency/contracts';
import {
  ListImportModel,
  ListMemberModel,
  MailingListModel,
  SuppressionModel,
} from '@agency/platform/testing/audience-models';
import { ActivityLogModel } from '@agency/platform/testing/activity-models';
import { createTestContext, type TestContext } from '../../testing/test-context';
import {
  as,
  oneUserPerRole,
  unknownId,
  validCampaign,
  type SignedInUser,
} from '../../testing/admin-fixtures';

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

  it('answers a missing list, a member twice and a missing member with the code and reason', async () => {
    const { body: list } = await manager().post('/api/admin/lists', { name: 'Refusals' });
    const errorOf = (response: { status: number; body: { error: unknown } }) => [
      response.status,
      response.body.error,
    ];
    const add = (listId: string) =>
      manager().post(`/api/admin/lists/${listId}/members`, { email: 'nadia@example.tn' });

    expect(errorOf(await add(unknownId()))).toEqual([
      404,
      { code: 'NOT_FOUND', message: 'No list with this id' },
    ]);
    expect(errorOf(await manager().get(`/api/admin/lists/${unknownId()}/members`))).toEqual([
      404,
      { code: 'NOT_FOUND', message: 'No list with this id' },
    ]);
    expect((await add(list.id)).status).toBe(201);
    expect(errorOf(await add(list.id))).toEqual([
      409,
      { code: 'CONFLICT', message: 'This address is in the list already' },
    ]);
    const absent = await manager().delete(`/api/admin/lists/${list.id}/members/sami%40example.tn`);
    expect(errorOf(absent)).toEqual([
      404,
      { code: 'NOT_FOUND', message: 'This address is not in the list' },
    ]);
    expect((await MailingListModel.findById(list.id).lean())?.memberCount).toBe(1);
  });

  it('answers 202 and marks the list as being deleted, and a second DELETE answers the same', async () => {
    const { body: list } = await manager().post('/api/admin/lists', { name: 'Old fair' });
    await manager().post(`/api/admin/lists/${list.id}/members`, { email: 'a@example.tn' });
    await manager().post(`/api/admin/lists/${list.id}/members`, { email: 'b@example.tn' });

    const first = await manager().delete(`/api/admin/lists/${list.id}`);
    expect(first.status).toBe(202);
    expect(first.body).toMatchObject({
      id: list.id,
      name: 'Old fair',
      state: 'deleting',
      deletion: { total: 2, removed: 0 },
    });
    // The members go in the worker's job, one per list: it is queued under the list's id.
    const queue = new Queue(QUEUE_NAMES.listDelete, {
      connection: ctx.redis,
      prefix: ctx.config.queuePrefix,
    });
    const job = await queue.getJob(listDeleteJobId(list.id));
    await queue.close();
    expect(job?.data).toEqual({ listId: list.id });

    const second = await manager().delete(`/api/admin/lists/${list.id}`);
    expect(second.status).toBe(202);
    expect(second.body).toEqual(first.body);
    expect((await manager().get(`/api/admin/lists/${list.id}`)).body.state).toBe('deleting');
    // The activity log has the deletion once: the second call changed nothing.
    expect(
      await ActivityLogModel.countDocuments({ action: 'list.delete', 'target.id': list.id }),
    ).toBe(1);

    // Once the job has removed it, the id is unknown.
    await MailingListModel.deleteOne({ _id: list.id });
    const gone = await manager().delete(`/api/admin/lists/${list.id}`);
    expect(gone.status).toBe(404);
    expect(gone.body.error.code).toBe('NOT_FOUND');
  });

  it('keeps a list being deleted out of the pickers, the campaigns, the imports and new members', async () => {
    const { body: kept } = await manager().post('/api/admin/lists', { name: 'Picker kept' });
    const { body: going } = await manager().post('/api/admin/lists', { name: 'Picker going' });
    await manager().post(`/api/admin/lists/${going.id}/members`, { email: 'kept@example.tn' });
    const countOf = async () =>
      (await manager().get(`/api/admin/campaigns/audience?listIds=${going.id}`)).body.lists;
    expect(await countOf()).toBe(1);
    expect((await manager().delete(`/api/admin/lists/${going.id}`)).status).toBe(202);

    const active = await manager().get('/api/admin/lists?state=active&search=picker');
    expect(active.body.items.map((list: { id: string }) => list.id)).toEqual([kept.id]);
    const deleting = await manager().get('/api/admin/lists?state=deleting&search=picker');
    expect(deleting.body.items.map((list: { id: string }) => list.id)).toEqual([going.id]);
    expect((await manager().get('/api/admin/lists?state=gone')).status).toBe(400);

    const campaign = await manager().post('/api/admin/campaigns', {
      ...validCampaign,
      recipientType: 'lists',
      listIds: [going.id],
    });
    expect(campaign.status).toBe(400);
    expect(campaign.body.error.fields.listIds).toBe(
      'One of these lists does not exist or is being deleted',
    );
    expect(await countOf()).toBe(0);

    const member = await manager().post(`/api/admin/lists/${going.id}/members`, {
      email: 'late@example.tn',
    });
    expect(member.status).toBe(409);
    expect(member.body.error.message).toBe('This list is being deleted');
    const renamed = await manager().put(`/api/admin/lists/${going.id}`, { name: 'Back' });
    expect(renamed.status).toBe(409);
  });

  it('refuses to delete a list while a file is being imported into it', async () => {
    const { body: list } = await manager().post('/api/admin/lists', { name: 'Importing' });
    await ListImportModel.create({
      fileName: 'guests.csv',
      fileId: new Types.ObjectId(),
      size: 10,
      encoding: 'utf-8',
      rowCount: 1,
      status: 'running',
      list: list.id,
      listName: list.name,
      byName: 'someone',
    });
    const refused = await manager().delete(`/api/admin/lists/${list.id}`);
    expect(refused.status).toBe(409);
    expect((await manager().get(`/api/admin/lists/${list.id}`)).body.state).toBe('active');
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
