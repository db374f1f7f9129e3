import type { ActivityAction, Role } from '@agency/contracts';
import { SuppressionModel, SubscriberModel } from '@agency/platform/testing/audience-models';
import { createTestContext, type TestContext } from '../../testing/test-context';
import { as, oneUserPerRole, type SignedInUser } from '../../testing/admin-fixtures';
import { ActivityLogModel } from '@agency/platform/testing/activity-models';

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

/** The latest activity entry of an action, once the request has written it. */
const latest = (action: ActivityAction) =>
  ActivityLogModel.findOne({ action }).sort({ time: -1 }).lean();

describe('the suppression list', () => {
  it('adds an address by its normalised form with a note, once, and logs it', async () => {
    const added = await manager().post('/api/admin/suppressions', {
      email: '  Leila@Example.TN ',
      note: 'Asked by phone',
    });
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({
      key: 'leila@example.tn',
      reason: 'staff',
      source: 'staff',
      detail: 'Asked by phone',
      by: { username: users.manager.username },
    });
    expect((await latest('suppression.add'))?.target).toMatchObject({ id: 'leila@example.tn' });
    const again = await manager().post('/api/admin/suppressions', { email: 'leila@example.tn' });
    expect(again.status).toBe(409);
  });

  it('refuses bad input with the field and the reason, storing nothing', async () => {
    const before = await SuppressionModel.countDocuments();
    const bad = await manager().post('/api/admin/suppressions', { email: 'not-an-address' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.fields.email).toBe('Please enter a valid email address');
    const dotted = await manager().post('/api/admin/suppressions', { email: 'rim.@example.tn' });
    expect(dotted.status).toBe(400);
    expect(dotted.body.error.fields.email).toBe('Please enter a valid email address');
    const injected = await manager().post('/api/admin/suppressions', { email: { $gt: '' } });
    expect(injected.status).toBe(400);
    const filter = await manager().get('/api/admin/suppressions?reason=gone');
    expect(filter.status).toBe(400);
    expect(await SuppressionModel.countDocuments()).toBe(before);
  });

  it('lists, searches, filters by reason and exports as CSV', async () => {
    await SuppressionModel.create({
      _id: 'sami@example.tn',
      email: 'sami@example.tn',
      reason: 'hard-bounce',
      source: 'ses',
      detail: '550 5.1.1 mailbox unknown',
      at: new Date(),
    });
    const page = await manager().get('/api/admin/suppressions?reason=hard-bounce');
    expect(page.status).toBe(200);
    expect(page.body.items.map((entry: { key: string }) => entry.key)).toEqual(['sami@example.tn']);
    const search = await manager().get('/api/admin/suppressions?search=mailbox%20unknown');
    expect(search.body.total).toBe(1);

    const csv = await manager().get('/api/admin/suppressions/export?reason=hard-bounce');
    expect(csv.status).toBe(200);
    expect(csv.headers['content-type']).toMatch(/text\/csv/);
    const lines = csv.text
      .replace(/^\uFEFF/, '')
      .trim()
      .split(/\r?\n/);
    expect(lines[0]).toBe('email,reason,source,at,campaign,detail');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(/^sami@example\.tn,hard-bounce,ses,/);
    expect(await latest('suppression.export')).not.toBeNull();
  });

  it('removes an address (logged with its reason), and leaves an unsubscribe in place', async () => {
    await SubscriberModel.create({ email: 'nour@example.tn', status: 'unsubscribed' });
    await manager().post('/api/admin/suppressions', { email: 'nour@example.tn' });
    const removed = await manager().delete('/api/admin/suppressions/NOUR%40example.tn');
    expect(removed.status).toBe(204);
    expect(await SuppressionModel.exists({ _id: 'nour@example.tn' })).toBeNull();
    expect((await latest('suppression.remove'))?.changes).toEqual([
      { field: 'reason', before: 'staff', after: null },
    ]);
    expect((await SubscriberModel.findOne({ email: 'nour@example.tn' }).lean())?.status).toBe(
      'unsubscribed',
    );
    expect((await manager().delete('/api/admin/suppressions/nour%40example.tn')).status).toBe(404);
  });

  it('is for managers and admins only', async () => {
    expect((await as(ctx, null).get('/api/admin/suppressions')).status).toBe(401);
    for (const role of ['viewer', 'editor'] as const) {
      const user = as(ctx, users[role]);
      expect((await user.get('/api/admin/suppressions')).status).toBe(403);
      expect((await user.get('/api/admin/suppressions/export')).status).toBe(403);
      expect((await user.post('/api/admin/suppressions', { email: 'x@example.tn' })).status).toBe(
        403,
      );
      expect((await user.delete('/api/admin/suppressions/sami%40example.tn')).status).toBe(403);
    }
    expect((await as(ctx, users.admin).get('/api/admin/suppressions')).status).toBe(200);
  });
});
