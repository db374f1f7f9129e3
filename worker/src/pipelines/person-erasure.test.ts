import { createHmac, randomBytes } from 'node:crypto';
import request from 'supertest';
import type { CampaignDto, ErasureDto, PersonDataExportDto } from '@agency/contracts';
import { createUser } from '@agency/backend';
import { createRedisConnection, type Redis } from '@agency/platform';
import { CampaignActivityModel } from '@agency/platform/testing/campaigns-models';
import { ListMemberModel, MailingListModel } from '@agency/platform/testing/audience-models';
import { ErasureModel } from '@agency/platform/testing/privacy-models';
import { documentsHolding, redisKeysHolding } from '../testing/held-addresses';
import { importApi, type ImportApi } from '../testing/import-api';
import { createPipelineContext, type PipelineContext } from '../testing/pipeline-context';
import { startSmtpSink, type SmtpSink } from '../testing/smtp-sink';

/**
 * One person's address seeded into every place the product keeps one, by
 * driving the real API and worker (an enquiry, a newsletter sign-up, an
 * import, a staff addition, a campaign, a bounce, a suppression, the test
 * allow-list, tracked opens), then erased from the dashboard's API: every
 * collection of the database and every Redis key is then searched for it.
 */
const SECRET = 'generic-mail-events-secret-of-at-least-32-chars';
const suffix = randomBytes(4).toString('hex');
const PERSON = `erin.${suffix}@people.test`;
/** As the person typed it on the forms: erasure finds every spelling. */
const TYPED = `Erin.${suffix}@People.TEST`;
const OTHER = `olga.${suffix}@people.test`;

let ctx: PipelineContext;
let smtp: SmtpSink;
let manager: ImportApi;
let redis: Redis;
let adminToken: string;

const api = () => request(ctx.app.callback());
const asAdmin = {
  get: (path: string) => api().get(path).set('Authorization', `Bearer ${adminToken}`),
  post: (path: string, body?: object) =>
    api().post(path).set('Authorization', `Bearer ${adminToken}`).send(body),
  put: (path: string, body?: object) =>
    api().put(path).set('Authorization', `Bearer ${adminToken}`).send(body),
};
/** Whether a mail went to PERSON, however its address was spelled. */
const toPerson = (envelopeTo: string[]) => envelopeTo.some((to) => to.toLowerCase() === PERSON);
const personPath = (email: string) => `/api/admin/people/${encodeURIComponent(email)}`;

beforeAll(async () => {
  smtp = await startSmtpSink();
  ctx = await createPipelineContext({
    // The admin signs in without a second factor here: the sign-in has tests of its own.
    env: { MAIL_EVENTS_GENERIC_SECRET: SECRET, TWO_FACTOR_REQUIRED_ROLES: 'none' },
  });
  await ctx.startWorker({ smtpUrl: smtp.url });
  manager = await importApi(ctx, 'sender');
  const password = 'correct horse battery staple';
  await createUser({ username: 'boss', email: 'boss@agency.test', role: 'admin', password });
  adminToken = (await api().post('/api/admin/login').send({ username: 'boss', password })).body
    .token as string;
  redis = createRedisConnection(ctx.config.redisUrl, 'producer');
}, 60_000);

afterAll(async () => {
  redis.disconnect();
  await ctx.close();
  await smtp.close();
});

async function until<T>(read: () => Promise<T | undefined>, what: string): Promise<T> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function sendCampaign(listId: string, name: string): Promise<string> {
  const draft = await manager.post('/api/admin/campaigns', {
    name,
    subject: `${name} for {{firstName}}`,
    content: '<p>Dear {{firstName}}, see you at the expo.</p>',
    recipientType: 'lists',
    listIds: [listId],
  });
  expect(draft.status).toBe(201);
  const id = draft.body.id as string;
  expect((await manager.post(`/api/admin/campaigns/${id}/send`)).status).toBe(202);
  await until(async () => {
    const { body } = await manager.get(`/api/admin/campaigns/${id}`);
    return ['sent', 'failed'].includes((body as CampaignDto).status) ? true : undefined;
  }, `campaign ${name}`);
  return id;
}

function postEvents(events: object[]) {
  const body = JSON.stringify({ events });
  const t = Math.floor(Date.now() / 1000);
  const v1 = createHmac('sha256', SECRET).update(`${t}.${body}`).digest('hex');
  return api()
    .post('/api/webhooks/mail-events/generic')
    .set('Content-Type', 'application/json')
    .set('X-Mail-Events-Signature', `t=${t},v1=${v1}`)
    .send(body);
}

/** The campaign's figures as the dashboard shows them. */
async function figuresOf(campaignId: string) {
  const { body } = await manager.get(`/api/admin/campaigns/${campaignId}`);
  const { total, sentCount, failedCount } = body as CampaignDto & Record<string, number>;
  return { total, sentCount, failedCount };
}

/** Everything the product can hold of PERSON, written through the API and the worker. */
async function seedEverywhere(): Promise<{ listId: string; campaignId: string }> {
  const enquiry = await api().post('/api/contact').send({
    firstName: 'Erin',
    lastName: 'Moreau',
    email: TYPED,
    phone: '+33 6 12 34 56 78',
    service: 'web-design',
    message: 'We would like a new website for our shop.',
    locale: 'fr',
  });
  expect(enquiry.status).toBe(201);
  await smtp.waitFor(({ envelopeTo }) => toPerson(envelopeTo));
  expect((await api().post('/api/newsletter').send({ email: TYPED, locale: 'fr' })).status).toBe(
    202,
  );
  await smtp.waitFor(({ mail }) => mail.subject === 'Confirmez votre inscription à la newsletter');

  const list = await manager.post('/api/admin/lists', { name: 'Expo guests' });
  const listId = list.body.id as string;
  // Twice in the file: the report quotes the second row as a duplicate.
  const csv = ['email,first name', `${TYPED},Erin`, `${OTHER},Olga`, `${PERSON},Erin`].join('\n');
  expect((await manager.runImport(csv, listId)).counts.created).toBe(2);
  const second = await manager.post('/api/admin/lists', { name: 'Partners' });
  const added = await manager.post(`/api/admin/lists/${second.body.id as string}/members`, {
    email: TYPED,
  });
  expect(added.status).toBe(201);

  // A test send of a draft to the person, whom an admin allowed.
  expect(
    (await asAdmin.put('/api/admin/settings/test-recipients', { entries: [PERSON, '@client.tn'] }))
      .status,
  ).toBe(200);
  const draft = await manager.post('/api/admin/campaigns', {
    name: 'Preview',
    subject: 'Preview of the autumn offer',
    content: '<p>Our autumn offer.</p>',
    recipientType: 'lists',
    listIds: [listId],
  });
  const tested = await manager.post(`/api/admin/campaigns/${draft.body.id as string}/test`, {
    email: TYPED,
  });
  expect(tested.status).toBe(202);
  await smtp.waitFor(
    ({ mail, envelopeTo }) =>
      toPerson(envelopeTo) && mail.subject === '[Test] Preview of the autumn offer',
  );

  const campaignId = await sendCampaign(listId, 'Invitation');
  const sent = smtp.received.find(
    ({ mail, envelopeTo }) => mail.subject?.startsWith('Invitation') && toPerson(envelopeTo),
  );
  const bounce = await postEvents([
    {
      id: `soft-${suffix}`,
      type: 'bounce',
      bounceType: 'soft',
      email: TYPED,
      messageId: sent?.mail.messageId,
      reason: `452 4.2.2 ${PERSON} mailbox full`,
    },
  ]);
  expect(bounce.status).toBe(200);
  expect(
    (await manager.post('/api/admin/suppressions', { email: TYPED, reason: 'manual' })).status,
  ).toBe(201);
  // Opens as a campaign in individual mode records them (the tracking tests drive that path).
  await CampaignActivityModel.create({
    _id: `${campaignId}:erin`,
    campaign: campaignId,
    recipientKey: 'AAAAAAAAAAAAAAAAAAAAAA',
    email: PERSON,
    locale: 'fr',
    events: [],
    opened: true,
  });
  return { listId, campaignId };
}

async function erase(address: string): Promise<ErasureDto> {
  const asked = await asAdmin.post(`${personPath(address)}/erasure`, { confirm: address });
  expect(asked.status).toBe(202);
  const { id } = asked.body as ErasureDto;
  return until(async () => {
    const { body } = await asAdmin.get(`/api/admin/erasures/${id}`);
    return ['done', 'failed'].includes((body as ErasureDto).state)
      ? (body as ErasureDto)
      : undefined;
  }, 'the erasure');
}

describe('erasing a person from the dashboard', () => {
  let seeded: { listId: string; campaignId: string };
  let figuresBefore: Awaited<ReturnType<typeof figuresOf>>;

  beforeAll(async () => {
    seeded = await seedEverywhere();
    figuresBefore = await figuresOf(seeded.campaignId);
  }, 120_000);

  it('finds the address in the store and in Redis before (the search works)', async () => {
    const documents = await documentsHolding(PERSON);
    expect(documents.length).toBeGreaterThan(5);
    expect((await redisKeysHolding(redis, PERSON)).length).toBeGreaterThan(0);
  });

  it('gives every section of the data in one file, and nothing of another address', async () => {
    const response = await asAdmin.get(`${personPath(TYPED)}/data`);
    expect(response.status).toBe(200);
    expect(response.headers['content-disposition']).toMatch(/^attachment; filename="person-data-/);
    const data = JSON.parse(response.text) as PersonDataExportDto;
    expect(data).toMatchObject({ formatVersion: 1, email: PERSON });
    expect(data.subscription).toMatchObject({ email: PERSON, status: 'pending', locale: 'fr' });
    expect(data.listMemberships.map(({ list }) => list.name).sort()).toEqual([
      'Expo guests',
      'Partners',
    ]);
    expect(data.enquiries).toEqual([
      expect.objectContaining({ email: TYPED, service: 'web-design', firstName: 'Erin' }),
    ]);
    expect(data.mailsSent).toEqual([
      expect.objectContaining({
        campaign: { id: seeded.campaignId, name: 'Invitation' },
        state: 'sent',
      }),
    ]);
    expect(data.mailEvents).toEqual([expect.objectContaining({ kind: 'soft-bounce' })]);
    expect(data.suppression).toMatchObject({ reason: 'staff', source: 'staff' });
    expect(data.trackingEvents).toEqual([
      expect.objectContaining({ campaign: seeded.campaignId, opened: true }),
    ]);
    expect(response.text.toLowerCase()).not.toContain(OTHER);
  });

  it('leaves no document and no Redis key holding the address, and keeps the campaign figures', async () => {
    const erasure = await erase(TYPED);
    expect(erasure).toMatchObject({ state: 'done' });
    expect(erasure.stepsDone).toBe(erasure.stepsTotal);

    const confirmation = await smtp.waitFor(
      ({ mail, envelopeTo }) =>
        toPerson(envelopeTo) && mail.subject === 'Vos données ont été effacées',
    );
    expect(confirmation.mail.html).toContain('<html lang="fr" dir="ltr">');

    expect(await documentsHolding(PERSON)).toEqual([]);
    expect(await redisKeysHolding(redis, PERSON)).toEqual([]);
    expect(await figuresOf(seeded.campaignId)).toEqual(figuresBefore);
    // The other guest is untouched, and the list counts the one member it lost.
    expect(await ListMemberModel.countDocuments({ list: seeded.listId })).toBe(1);
    expect(await MailingListModel.findById(seeded.listId).lean()).toMatchObject({ memberCount: 1 });
    expect((await documentsHolding(OTHER)).length).toBeGreaterThan(0);
  });

  it('names the person only by the keyed digest in the activity log and the erasures', async () => {
    const { body } = await asAdmin.get('/api/admin/activity-logs?pageSize=100');
    const text = JSON.stringify(body).toLowerCase();
    expect(text).toContain('person.erase');
    expect(text).not.toContain(PERSON);
    const [stored] = await ErasureModel.find({}).lean();
    expect(stored?._id).toMatch(/^[0-9a-f]{32}$/);
  });

  it('never takes the address back from an import or a staff addition', async () => {
    const report = await manager.runImport(
      ['email', TYPED, `new.${suffix}@people.test`].join('\n'),
      seeded.listId,
    );
    expect(report.counts).toMatchObject({ created: 1, skipped: 1 });
    const refused = await manager.post(`/api/admin/lists/${seeded.listId}/members`, {
      email: PERSON,
    });
    expect(refused.status).toBe(409);
    expect(refused.body.error.fields.email).toMatch(/erased/);
    expect(await documentsHolding(PERSON)).toEqual([]);
  });

  it('erases again when asked again, and finds nothing left to do', async () => {
    const again = await erase(PERSON);
    expect(again).toMatchObject({ state: 'done' });
    expect(await documentsHolding(PERSON)).toEqual([]);
    expect(await redisKeysHolding(redis, PERSON)).toEqual([]);
    expect(await figuresOf(seeded.campaignId)).toEqual(figuresBefore);
  });
});
