import { Queue } from 'bullmq';
import { QUEUE_NAMES, personErasureJobId, type PersonDataExportDto } from '@agency/contracts';
import { SubscriberModel } from '@agency/platform/testing/audience-models';
import { startOwnRedis, type OwnRedis } from '@agency/platform/testing/own-redis';
import { ErasureModel } from '@agency/platform/testing/privacy-models';
import { ActivityLogModel } from '@agency/platform/testing/activity-models';
import { as, signedInUser, type SignedInUser } from '../../testing/admin-fixtures';
import { createTestContext, type TestContext } from '../../testing/test-context';

/**
 * The data download and erasure calls at the API's edge: what they refuse,
 * what they queue, and what the activity log keeps of the person (never the
 * address). The erasure itself runs in the worker (its pipeline test).
 */
let ctx: TestContext;
let admin: SignedInUser;
let erasures: Queue;

beforeAll(async () => {
  ctx = await createTestContext();
  admin = await signedInUser(ctx, 'admin');
  erasures = new Queue(QUEUE_NAMES.personErasure, {
    connection: ctx.redis,
    prefix: ctx.config.queuePrefix,
  });
});
afterAll(async () => {
  await erasures.close();
  await ctx.close();
});

const dataPath = (email: string) => `/api/admin/people/${encodeURIComponent(email)}/data`;
const erasurePath = (email: string) => `/api/admin/people/${encodeURIComponent(email)}/erasure`;

describe('GET personData', () => {
  it('answers a malformed address with 400 naming the field, and logs nothing', async () => {
    const logged = await ActivityLogModel.countDocuments();
    const response = await as(ctx, admin).get(dataPath('not-an-address'));
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({
      code: 'VALIDATION_FAILED',
      fields: { email: expect.any(String) },
    });
    expect(await ActivityLogModel.countDocuments()).toBe(logged);
  });

  it('gives the subscription of the address alone, as an attachment, and logs its digest', async () => {
    await SubscriberModel.create([
      { email: 'nadia@example.tn', status: 'confirmed', locale: 'ar', confirmedAt: new Date() },
      { email: 'nabil@example.tn', status: 'pending', locale: 'fr' },
    ]);
    const response = await as(ctx, admin).get(dataPath('Nadia@Example.tn'));
    expect(response.status).toBe(200);
    expect(response.headers['content-disposition']).toMatch(/^attachment; filename="/);
    const data = JSON.parse(response.text) as PersonDataExportDto;
    expect(data).toMatchObject({
      formatVersion: 1,
      email: 'nadia@example.tn',
      subscription: { status: 'confirmed', locale: 'ar' },
      listMemberships: [],
      enquiries: [],
      mailsSent: [],
    });
    expect(Date.parse(data.generatedAt)).not.toBeNaN();
    expect(response.text).not.toContain('nabil');
    const [entry] = await ActivityLogModel.find({ action: 'person.data-export' }).lean();
    expect(entry?.target).toEqual({ type: 'person', id: expect.stringMatching(/^[0-9a-f]{32}$/) });
    expect(JSON.stringify(entry).toLowerCase()).not.toContain('nadia');
  });
});

describe('POST personErasure', () => {
  it.each([
    ['an object for the address', { confirm: { $ne: null } }],
    ['another address', { confirm: 'someone.else@example.tn' }],
    ['nothing', {}],
  ])('refuses %s as confirmation with 400 on confirm, and queues nothing', async (_, body) => {
    const response = await as(ctx, admin).post(erasurePath('karim@example.tn'), body);
    expect(response.status).toBe(400);
    expect(response.body.error.fields).toEqual({ confirm: expect.any(String) });
    expect(await ErasureModel.countDocuments()).toBe(0);
    expect(await erasures.getJobCounts('waiting')).toEqual({ waiting: 0 });
  });

  it('refuses a malformed address with 400 on email', async () => {
    const response = await as(ctx, admin).post(erasurePath('karim@'), { confirm: 'karim@' });
    expect(response.status).toBe(400);
    expect(response.body.error.fields).toMatchObject({ email: expect.any(String) });
  });

  it('queues one job per address however often it is asked, and logs only the digest', async () => {
    await as(ctx, admin).post('/api/admin/suppressions', { email: 'Leila@example.tn' });
    const before = JSON.stringify(await ActivityLogModel.find({}).lean()).toLowerCase();
    expect(before).toContain('leila@example.tn');
    const first = await as(ctx, admin).post(erasurePath('leila@example.tn'), {
      confirm: 'LEILA@example.tn',
    });
    expect(first.status).toBe(202);
    expect(first.body).toMatchObject({
      id: expect.stringMatching(/^[0-9a-f]{32}$/),
      state: 'queued',
    });
    const second = await as(ctx, admin).post(erasurePath('Leila@Example.tn'), {
      confirm: 'leila@example.tn',
    });
    expect(second.body.id).toBe(first.body.id);
    const job = await erasures.getJob(personErasureJobId(first.body.id as string));
    expect(job?.data).toEqual({ erasureId: first.body.id, email: 'leila@example.tn' });
    expect(await erasures.getJobCounts('waiting')).toEqual({ waiting: 1 });
    // The suppression's entry named the address: it now names the digest.
    const log = JSON.stringify(await ActivityLogModel.find({}).lean()).toLowerCase();
    expect(log).toContain('person.erase');
    expect(log).not.toContain('leila@example.tn');

    const state = await as(ctx, admin).get(`/api/admin/erasures/${first.body.id as string}`);
    expect(state.status).toBe(200);
    expect(state.body).toMatchObject({ id: first.body.id, state: 'queued', stepsDone: 0 });
    expect(JSON.stringify(state.body)).not.toContain('leila');
  });
});

describe('GET erasure', () => {
  it('answers a malformed id with 400 on id, and an unknown one with 404', async () => {
    const malformed = await as(ctx, admin).get(
      `/api/admin/erasures/${encodeURIComponent('{"$gt":""}')}`,
    );
    expect(malformed.status).toBe(400);
    expect(malformed.body.error.fields).toEqual({ id: expect.any(String) });
    const unknown = await as(ctx, admin).get(`/api/admin/erasures/${'0'.repeat(32)}`);
    expect(unknown.status).toBe(404);
  });
});

describe('POST personErasure while Redis does not answer', () => {
  let own: OwnRedis;
  let outage: TestContext;

  beforeAll(async () => {
    // A Redis of this test's own, so freezing it harms no other test file.
    own = await startOwnRedis();
    outage = await createTestContext({ redisUrl: own.url });
  });
  afterAll(async () => {
    own.thaw();
    await outage.close();
    await own.close();
  });

  it('answers 503 and shows the erasure failed, so that asking again queues it', async () => {
    const caller = await signedInUser(outage, 'admin');
    own.freeze();
    const response = await as(outage, caller).post(erasurePath('rania@example.tn'), {
      confirm: 'rania@example.tn',
    });
    own.thaw();
    expect(response.status).toBe(503);
    expect(response.body.error.code).toBe('UNAVAILABLE');
    expect(await ErasureModel.find({}, { state: 1 }).lean()).toContainEqual(
      expect.objectContaining({ state: 'failed' }),
    );
  }, 20_000);
});
