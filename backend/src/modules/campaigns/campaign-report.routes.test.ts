import { randomUUID } from 'node:crypto';
import { pino } from 'pino';
import type { TrackingEventRecord } from '@agency/contracts';
import {
  createCampaignEventWriter,
  newCampaignTrackingKey,
  recipientKeyOf,
} from '@agency/platform';
import {
  MailEventModel,
  MailingListModel,
  SegmentModel,
} from '@agency/platform/testing/audience-models';
import {
  CampaignActivityModel,
  CampaignBatchModel,
  CampaignModel,
  CampaignResultsModel,
} from '@agency/platform/testing/campaigns-models';
import { createTestContext, type TestContext } from '../../testing/test-context';
import {
  as,
  oneUserPerRole,
  unknownId,
  validCampaign,
  type SignedInUser,
} from '../../testing/admin-fixtures';
import type { Role } from '@agency/contracts';

const LINKS = ['https://example.com/offer', 'https://example.com/shop'];
const SENT = new Date('2026-05-04T10:00:00.000Z');
const PEOPLE = ['amira@example.com', 'sami@example.com', '=cmd@example.com', 'quiet@example.com'];

let ctx: TestContext;
let users: Record<Role, SignedInUser>;
beforeAll(async () => {
  ctx = await createTestContext();
  users = await oneUserPerRole(ctx);
});
afterAll(async () => {
  await ctx.close();
});

const writer = createCampaignEventWriter(pino({ level: 'silent' }));

/** A campaign sent to PEOPLE, with amira opening and clicking, sami clicking, =cmd opening. */
async function sentCampaign(mode: 'anonymous' | 'individual'): Promise<string> {
  const key = newCampaignTrackingKey();
  const campaign = await CampaignModel.create({
    ...validCampaign,
    name: `Results ${randomUUID()}`,
    status: 'sent',
    total: PEOPLE.length,
    sentCount: PEOPLE.length,
    startedAt: SENT,
    finishedAt: SENT,
    dispatchedRound: 1,
    tracking: { opens: true, clicks: true, mode, key, links: LINKS },
  });
  const id = String(campaign._id);
  await CampaignBatchModel.create({
    _id: `${id}:1:0`,
    campaign: campaign._id,
    round: 1,
    seq: 0,
    createdAt: SENT,
    recipients: PEOPLE.map((email, index) => ({
      key: `k${index}`,
      email,
      locale: index ? 'en' : 'fr',
    })),
  });
  const event = (
    email: string,
    seconds: number,
    linkIndex: number | null,
  ): TrackingEventRecord => ({
    id: randomUUID(),
    kind: linkIndex === null ? 'open' : 'click',
    campaignId: id,
    recipientKey: recipientKeyOf(key, email),
    locale: email === PEOPLE[0] ? 'fr' : 'en',
    linkIndex,
    trap: false,
    at: new Date(SENT.getTime() + seconds * 1000).toISOString(),
    sentAt: SENT.toISOString(),
    verdict: 'person',
    rule: null,
  });
  await writer.write(
    [
      event('amira@example.com', 300, null),
      event('amira@example.com', 320, 1),
      event('sami@example.com', 400, 0),
      event('=cmd@example.com', 500, null),
    ],
    randomUUID(),
  );
  // The quiet recipient's mail bounced.
  await MailEventModel.create({
    _id: `test:${randomUUID()}`,
    provider: 'test',
    kind: 'hard-bounce',
    key: 'quiet@example.com',
    email: 'quiet@example.com',
    campaign: campaign._id,
    at: SENT,
  });
  return id;
}

const notASegment = { segmentId: null, segmentName: null };
const notAList = { listId: null, listName: null };

/** A person's open whose token named the source it was mailed through. */
async function sourcedOpen(
  id: string,
  email: string,
  source: number,
): Promise<TrackingEventRecord> {
  const campaign = await CampaignModel.findById(id, { tracking: 1 }).lean();
  return {
    id: randomUUID(),
    kind: 'open',
    campaignId: id,
    recipientKey: recipientKeyOf(campaign?.tracking?.key ?? '', email),
    locale: 'en',
    linkIndex: null,
    trap: false,
    at: new Date(SENT.getTime() + 600_000).toISOString(),
    sentAt: SENT.toISOString(),
    source,
    verdict: 'person',
    rule: null,
  };
}

describe('GET the campaign report', () => {
  it('answers delivery, opens and clicks by people and machines, rates, links and languages to a viewer', async () => {
    const id = await sentCampaign('anonymous');
    const { body } = await as(ctx, users.viewer)
      .get(`/api/admin/campaigns/${id}/report`)
      .expect(200);
    expect(body.delivery).toEqual({
      sent: 4,
      failed: 0,
      delivered: 3,
      bounced: { hard: 1, soft: 0 },
      complaints: 0,
      unsubscribes: 0,
    });
    expect(body.opens).toEqual({
      people: { unique: 3, total: 3 },
      machines: { unique: 0, total: 0 },
      implied: 1,
    });
    expect(body.clicks.people).toEqual({ unique: 2, total: 2 });
    expect(body.rates).toEqual({ open: 100, click: 66.7 });
    expect(body.links.map((link: { url: string }) => link.url)).toEqual(LINKS);
    expect(body.languages).toEqual([
      { locale: 'en', delivered: 3, opened: 2, clicked: 1 },
      { locale: 'fr', delivered: 1, opened: 1, clicked: 1 },
    ]);
  });

  it('answers 404 for no campaign and 400 naming a malformed id', async () => {
    await as(ctx, users.viewer).get(`/api/admin/campaigns/${unknownId()}/report`).expect(404);
    const { body } = await as(ctx, users.viewer)
      .get('/api/admin/campaigns/nope/report')
      .expect(400);
    expect(Object.keys(body.error.fields)).toEqual(['id']);
  });

  it('exports the report as CSV', async () => {
    const id = await sentCampaign('anonymous');
    const response = await as(ctx, users.viewer)
      .get(`/api/admin/campaigns/${id}/report/export`)
      .expect(200)
      .expect('Content-Type', /text\/csv/);
    const lines = response.text
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\n');
    expect(lines[0]).toBe('section,item,unique,total');
    expect(lines).toEqual(
      expect.arrayContaining(['opens,people,3,3', `link-people,${LINKS[1]},1,1`]),
    );
  });

  it('answers and exports one row per targeted list, a deleted one by its id, names formula-safe', async () => {
    const id = await sentCampaign('anonymous');
    const list = await MailingListModel.create({ name: '=Leads' });
    const gone = unknownId();
    await CampaignModel.updateOne(
      { _id: id },
      { recipientType: 'lists', listIds: [list._id, gone], mailsPerSource: { s0: 3, s1: 1 } },
    );
    const { body } = await as(ctx, users.viewer)
      .get(`/api/admin/campaigns/${id}/report`)
      .expect(200);
    // The events carried no source (as tokens mailed before sources were kept): all unknown.
    expect(body.sources).toEqual([
      {
        ...notASegment,
        kind: 'list',
        listId: String(list._id),
        listName: '=Leads',
        delivered: 3,
        opened: 0,
        clicked: 0,
        rates: { open: 0, click: 0 },
      },
      {
        ...notASegment,
        kind: 'list',
        listId: gone,
        listName: null,
        delivered: 1,
        opened: 0,
        clicked: 0,
        rates: { open: 0, click: 0 },
      },
      {
        ...notASegment,
        kind: 'unknown',
        listId: null,
        listName: null,
        delivered: 0,
        opened: 3,
        clicked: 2,
        rates: { open: null, click: null },
      },
    ]);
    const response = await as(ctx, users.viewer)
      .get(`/api/admin/campaigns/${id}/report/export`)
      .expect(200);
    expect(response.text.split('\n')).toEqual(
      expect.arrayContaining([
        `source-delivered,'=Leads (${String(list._id)}),,3`,
        `source-delivered,deleted list (${gone}),,1`,
        'source-opened,unknown,3,',
        'source-clicked,unknown,2,',
      ]),
    );
  });

  it('answers and exports one row per targeted segment, with its rates, a deleted one by its id', async () => {
    const id = await sentCampaign('anonymous');
    const segment = await SegmentModel.create({
      name: '=Francophones',
      rule: { match: 'all', conditions: [{ field: 'locale', op: 'is', value: 'fr' }] },
    });
    const gone = unknownId();
    await CampaignModel.updateOne(
      { _id: id },
      {
        recipientType: 'segments',
        segmentIds: [segment._id, gone],
        mailsPerSource: { s0: 3, s1: 1 },
      },
    );
    // Recipients who had not opened yet: a recipient keeps the source of its first event.
    const opens = await Promise.all([
      sourcedOpen(id, 'nadia@example.com', 0),
      sourcedOpen(id, 'omar@example.com', 0),
      sourcedOpen(id, 'quiet@example.com', 1),
    ]);
    await writer.write(opens, randomUUID());
    const { body } = await as(ctx, users.viewer)
      .get(`/api/admin/campaigns/${id}/report`)
      .expect(200);
    expect(body.sources.slice(0, 2)).toEqual([
      {
        ...notAList,
        kind: 'segment',
        segmentId: String(segment._id),
        segmentName: '=Francophones',
        delivered: 3,
        opened: 2,
        clicked: 0,
        rates: { open: 66.7, click: 0 },
      },
      {
        ...notAList,
        kind: 'segment',
        segmentId: gone,
        segmentName: null,
        delivered: 1,
        opened: 1,
        clicked: 0,
        rates: { open: 100, click: 0 },
      },
    ]);
    const response = await as(ctx, users.viewer)
      .get(`/api/admin/campaigns/${id}/report/export`)
      .expect(200);
    expect(response.text.split('\n')).toEqual(
      expect.arrayContaining([
        `source-delivered,'=Francophones (${String(segment._id)}),,3`,
        `source-open-percent,'=Francophones (${String(segment._id)}),,66.7`,
        `source-opened,deleted segment (${gone}),1,`,
      ]),
    );
  });

  it('gives a source row no rate for a kind the campaign did not track', async () => {
    const id = await sentCampaign('anonymous');
    await CampaignModel.updateOne(
      { _id: id },
      { 'tracking.clicks': false, mailsPerSource: { s1: 2 } },
    );
    const { body } = await as(ctx, users.viewer)
      .get(`/api/admin/campaigns/${id}/report`)
      .expect(200);
    // A campaign to subscribers: its one source is the subscribers (SUBSCRIBERS_SOURCE, `s1`).
    expect(body.sources[0]).toMatchObject({
      kind: 'subscribers',
      delivered: 2,
      rates: { open: 0, click: null },
    });
  });

  it('fills the campaign list’s rates', async () => {
    const id = await sentCampaign('anonymous');
    const { body } = await as(ctx, users.viewer)
      .get('/api/admin/campaigns?pageSize=100')
      .expect(200);
    const row = body.items.find((item: { id: string }) => item.id === id);
    expect(row.rates).toEqual({ open: 100, click: 66.7 });
  });

  it('gives no rate for a kind the campaign did not track, though clicks imply opens', async () => {
    const id = await sentCampaign('anonymous');
    await CampaignModel.updateOne({ _id: id }, { 'tracking.opens': false });
    const { body: list } = await as(ctx, users.viewer)
      .get('/api/admin/campaigns?pageSize=100')
      .expect(200);
    const row = list.items.find((item: { id: string }) => item.id === id);
    expect(row.rates).toEqual({ open: null, click: 66.7 });
    const { body: report } = await as(ctx, users.viewer)
      .get(`/api/admin/campaigns/${id}/report`)
      .expect(200);
    expect(report.rates).toEqual({ open: null, click: 66.7 });
  });
});

describe('GET the individual results', () => {
  const people = (user: SignedInUser, id: string, query = '') =>
    as(ctx, user).get(`/api/admin/campaigns/${id}/report/people${query}`);

  it('refuses a viewer and an editor, and answers a manager', async () => {
    const id = await sentCampaign('individual');
    for (const role of ['viewer', 'editor'] as const) {
      await people(users[role], id).expect(403);
      await as(ctx, users[role]).get(`/api/admin/campaigns/${id}/report/people/export`).expect(403);
    }
    const { body } = await people(users.manager, id).expect(200);
    expect(body.total).toBe(3);
    expect(body.items.map((item: { email: string }) => item.email)).toEqual([
      '=cmd@example.com',
      'amira@example.com',
      'sami@example.com',
    ]);
  });

  it('filters by who clicked and searches by the address’s start', async () => {
    const id = await sentCampaign('individual');
    const clicked = await people(users.admin, id, '?filter=clicked').expect(200);
    expect(clicked.body.items.map((item: { email: string }) => item.email)).toEqual([
      'amira@example.com',
      'sami@example.com',
    ]);
    const found = await people(users.admin, id, '?search=Ami').expect(200);
    expect(found.body.items).toEqual([
      expect.objectContaining({
        email: 'amira@example.com',
        opened: true,
        openImplied: false,
        clickedLinks: [expect.objectContaining({ index: 1, url: LINKS[1] })],
      }),
    ]);
    const paged = await people(users.admin, id, '?pageSize=1&page=2').expect(200);
    expect([paged.body.total, paged.body.items[0].email]).toEqual([3, 'amira@example.com']);
  });

  it('refuses a bad filter or page size with the field and the reason', async () => {
    const id = await sentCampaign('individual');
    const bad = await people(users.admin, id, '?filter=everyone&pageSize=1000').expect(400);
    expect(Object.keys(bad.body.error.fields).sort()).toEqual(['filter', 'pageSize']);
  });

  it('answers 409 for a campaign sent in anonymous mode', async () => {
    const id = await sentCampaign('anonymous');
    for (const path of ['people', 'people/export']) {
      const { body } = await as(ctx, users.admin)
        .get(`/api/admin/campaigns/${id}/report/${path}`)
        .expect(409);
      expect(body.error).toMatchObject({
        code: 'CONFLICT',
        message: expect.stringMatching(/individual mode/),
      });
    }
  });

  it('exports them as formula-safe CSV', async () => {
    const id = await sentCampaign('individual');
    const response = await as(ctx, users.manager)
      .get(`/api/admin/campaigns/${id}/report/people/export?filter=opened`)
      .expect(200)
      .expect('Content-Type', /text\/csv/);
    const lines = response.text
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\n');
    expect(lines[0]).toBe('email,locale,opened,openImplied,firstOpenAt,opens,clicks,clickedLinks');
    expect(lines.slice(1).map((line) => line.split(',')[0])).toEqual([
      "'=cmd@example.com",
      'amira@example.com',
      'sami@example.com',
    ]);
  });
});

describe('deleting a campaign', () => {
  it('deletes its results and every recipient’s activity with it', async () => {
    const id = await sentCampaign('individual');
    const kept = await sentCampaign('individual');
    expect(await CampaignActivityModel.countDocuments({ campaign: id })).toBe(3);
    await as(ctx, users.manager).delete(`/api/admin/campaigns/${id}`).expect(204);
    expect(await CampaignActivityModel.countDocuments({ campaign: id })).toBe(0);
    expect(await CampaignResultsModel.countDocuments({ _id: id })).toBe(0);
    expect(await CampaignActivityModel.countDocuments({ campaign: kept })).toBe(3);
  });
});
