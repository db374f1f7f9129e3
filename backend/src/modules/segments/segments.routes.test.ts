import type { Role, SegmentRule } from '@agency/contracts';
import { refreshPeople, withSearchKeys } from '@agency/platform';
import {
  PersonModel,
  SegmentModel,
  SubscriberModel,
  SuppressionModel,
} from '@agency/platform/testing/audience-models';
import { ContactModel } from '@agency/platform/testing/contact-models';
import { createTestContext, type TestContext } from '../../testing/test-context';
import {
  as,
  ENQUIRY_CONSENT,
  oneUserPerRole,
  validCampaign,
  unknownId,
  type SignedInUser,
} from '../../testing/admin-fixtures';
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
beforeEach(async () => {
  await Promise.all(
    [PersonModel, SegmentModel, ContactModel, SubscriberModel, SuppressionModel].map((model) =>
      (model as typeof PersonModel).deleteMany({}),
    ),
  );
});

const manager = () => as(ctx, users.manager);
const FRENCH: SegmentRule = {
  match: 'all',
  conditions: [{ field: 'locale', op: 'is', value: 'fr' }],
};

/** An enquiry in French, with or without the "send me news" box ticked. */
async function enquiry(email: string, consented: boolean): Promise<void> {
  await ContactModel.create(
    withSearchKeys({
      firstName: 'Ines',
      lastName: 'K',
      email,
      service: 'web-design' as const,
      message: 'Hello there',
      locale: 'fr' as const,
      ...(consented ? { consent: ENQUIRY_CONSENT } : {}),
    }),
  );
  await refreshPeople([email]);
}

describe('segments', () => {
  it('are created, read, listed, changed and deleted, each change in the activity log', async () => {
    const created = await manager().post('/api/admin/segments', {
      name: 'French',
      rule: FRENCH,
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'French', description: null, rule: FRENCH });
    const path = `/api/admin/segments/${created.body.id as string}`;
    expect((await manager().get(path)).body.rule).toEqual(FRENCH);
    const any: SegmentRule = {
      match: 'any',
      conditions: [
        { field: 'tags', op: 'anyOf', value: ['vip'] },
        { field: 'firstSeenAt', op: 'withinLastDays', value: 30 },
      ],
    };
    const changed = await manager().put(path, { name: 'Recent VIPs', rule: any });
    expect(changed.status).toBe(200);
    expect(changed.body.rule).toEqual(any);
    const listed = await manager().get('/api/admin/segments');
    expect(listed.body.items.map(({ name }: { name: string }) => name)).toEqual(['Recent VIPs']);
    expect((await manager().delete(path)).status).toBe(204);
    expect((await manager().get(path)).status).toBe(404);
    const actions = await ActivityLogModel.find({ 'target.type': 'segment' }).lean();
    expect(actions.map(({ action }) => action).sort()).toEqual([
      'segment.create',
      'segment.delete',
      'segment.update',
    ]);
  });

  it('are for those who see people only', async () => {
    const body = { name: 'French', rule: FRENCH };
    for (const role of ['editor', 'viewer'] as const) {
      const user = as(ctx, users[role]);
      expect((await user.get('/api/admin/segments')).status).toBe(403);
      expect((await user.post('/api/admin/segments', body)).status).toBe(403);
      expect((await user.post('/api/admin/segments/count', FRENCH)).status).toBe(403);
    }
    expect((await as(ctx, null).get('/api/admin/segments')).status).toBe(401);
    expect((await as(ctx, users.admin).post('/api/admin/segments', body)).status).toBe(201);
    expect((await manager().get(`/api/admin/segments/${unknownId()}`)).status).toBe(404);
  });

  it.each([
    ['a field it does not know', { field: 'password', op: 'is', value: 'x' }, 'field'],
    ['an op its field does not take', { field: 'tags', op: 'is', value: 'vip' }, 'op'],
    ['a value outside the field', { field: 'locale', op: 'is', value: 'de' }, 'value'],
    ['a list where one value goes', { field: 'locale', op: 'is', value: ['fr'] }, 'value'],
    ['an operator as a value', { field: 'locale', op: 'is', value: { $ne: 'x' } }, 'value'],
    ['an operator in a list', { field: 'tags', op: 'anyOf', value: [{ $gt: '' }] }, 'value[0]'],
    ['an empty list', { field: 'tags', op: 'anyOf', value: [] }, 'value'],
    [
      'a day that does not exist',
      { field: 'firstSeenAt', op: 'before', value: '2026-02-30' },
      'value',
    ],
    ['days as text', { field: 'firstSeenAt', op: 'withinLastDays', value: '7' }, 'value'],
    ['a list id that is not one', { field: 'listIds', op: 'anyOf', value: ['x'] }, 'value[0]'],
  ])('refuse %s with a 400 naming it, and keep nothing', async (_case, condition, field) => {
    const response = await manager().post('/api/admin/segments', {
      name: 'Bad',
      rule: { match: 'all', conditions: [condition] },
    });
    expect(response.status).toBe(400);
    expect(response.body.error.fields[`rule.conditions[0].${field}`]).toBeDefined();
    expect(await SegmentModel.countDocuments()).toBe(0);
  });

  it('refuse no conditions, more than twenty, and an unknown match', async () => {
    const condition = { field: 'locale', op: 'is', value: 'fr' };
    const many = await manager().post('/api/admin/segments/count', {
      match: 'all',
      conditions: Array.from({ length: 21 }, () => condition),
    });
    expect(many.status).toBe(400);
    expect(many.body.error.fields.conditions).toBeDefined();
    const none = await manager().post('/api/admin/segments/count', { conditions: [] });
    expect(none.body.error.fields.conditions).toBeDefined();
    const match = await manager().post('/api/admin/segments/count', {
      match: { $ne: 'all' },
      conditions: [condition],
    });
    expect(match.body.error.fields.match).toBeDefined();
  });

  it('count whom a rule matches, and of those whom a campaign would mail', async () => {
    await enquiry('agreed@x.tn', true);
    await enquiry('silent@x.tn', false);
    await enquiry('bounced@x.tn', true);
    await SuppressionModel.create({
      _id: 'bounced@x.tn',
      email: 'bounced@x.tn',
      reason: 'hard-bounce',
      source: 'dsn',
      at: new Date(),
    });
    await refreshPeople(['bounced@x.tn']);
    await enquiry('english@x.tn', true);
    await PersonModel.updateOne({ _id: 'english@x.tn' }, { locale: 'en' });
    const counted = await manager().post('/api/admin/segments/count', FRENCH);
    expect(counted.status).toBe(200);
    expect(counted.body).toEqual({ matched: 3, mailable: 1 });
  });

  it('count the unsubscribed out of the mailable', async () => {
    await enquiry('left@x.tn', true);
    // Left after ticking the box: the walk's exclusion keeps it out, whatever the view says.
    await SubscriberModel.create({
      email: 'left@x.tn',
      locale: 'fr' as const,
      status: 'unsubscribed',
      unsubscribedAt: new Date(Date.now() - 60_000),
    });
    await PersonModel.updateOne({ _id: 'left@x.tn' }, { consent: 'given' });
    const counted = await manager().post('/api/admin/segments/count', FRENCH);
    expect(counted.body).toEqual({ matched: 1, mailable: 0 });
  });
});

describe('a campaign to segments', () => {
  it('names saved segments, one to five, and its audience counts their consenting people', async () => {
    await enquiry('agreed@x.tn', true);
    await enquiry('silent@x.tn', false);
    const segment = await manager().post('/api/admin/segments', { name: 'French', rule: FRENCH });
    const segmentId = segment.body.id as string;
    const campaign = { ...validCampaign, recipientType: 'segments' };

    const none = await manager().post('/api/admin/campaigns', campaign);
    expect(none.status).toBe(400);
    expect(none.body.error.fields.segmentIds).toBeDefined();
    const unknown = await manager().post('/api/admin/campaigns', {
      ...campaign,
      segmentIds: [unknownId()],
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.fields.segmentIds).toMatch(/does not exist/);
    const six = await manager().post('/api/admin/campaigns', {
      ...campaign,
      segmentIds: Array.from({ length: 6 }, () => segmentId),
    });
    expect(six.body.error.fields.segmentIds).toBeDefined();

    const created = await manager().post('/api/admin/campaigns', {
      ...campaign,
      segmentIds: [segmentId],
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ recipientType: 'segments', segmentIds: [segmentId] });
    // Another type keeps no segments.
    const toAll = await manager().post('/api/admin/campaigns', {
      ...validCampaign,
      recipientType: 'all',
      segmentIds: [segmentId],
    });
    expect(toAll.body.segmentIds).toEqual([]);

    const audience = await manager().get(`/api/admin/campaigns/audience?segmentIds=${segmentId}`);
    expect(audience.status).toBe(200);
    expect(audience.body.segments).toBe(1);
    const forged = await manager().get('/api/admin/campaigns/audience?segmentIds=x,y');
    expect(forged.status).toBe(400);
  });
});
