import { randomUUID } from 'node:crypto';
import mongoose, { Types } from 'mongoose';
import type { TrackingEventRecord } from '@agency/contracts';
import { UPDATE_STATEMENTS_PER_COMMAND } from '../../batched-writes';
import { createLogger } from '../../logger';
import { useFileDatabase } from '../../testing/file-database';
import { ON_AND_OFF, withStoreWorkarounds } from '../../testing/store-workarounds';
import { CampaignBatchModel } from '../campaign-batch.model';
import { CampaignModel } from '../campaign.model';
import { MailingListModel } from '../../audience/mailing-list.model';
import { newCampaignTrackingKey, recipientKeyOf } from '../tracking/recipient-key';
import { ACTIVITY_EVENT_LIMIT, createCampaignEventWriter } from './campaign-event-writer';
import { readCampaignPeoplePage } from './campaign-people-queries';
import { readCampaignReport } from './campaign-report-queries';
import {
  CampaignActivityModel,
  CampaignResultsModel,
  activityCollection,
} from './campaign-results.model';

const LINKS = ['https://example.com/a', 'https://example.com/b', 'https://example.com/c'];
const STARTED = new Date('2026-05-04T10:00:00.000Z');
const SENT = '2026-05-04T10:00:00.000Z';
const after = (seconds: number) => new Date(Date.parse(SENT) + seconds * 1000).toISOString();

async function sentCampaign(mode: 'anonymous' | 'individual' = 'anonymous') {
  const key = newCampaignTrackingKey();
  const campaign = await CampaignModel.create({
    name: `Spring ${randomUUID()}`,
    subject: 'Hello',
    content: '<p>Hi</p>',
    status: 'sent',
    sentCount: 10,
    startedAt: STARTED,
    finishedAt: STARTED,
    dispatchedRound: 1,
    tracking: { opens: true, clicks: true, mode, key, links: LINKS },
  });
  return { id: String(campaign._id), key };
}

type EventFields = Partial<TrackingEventRecord> &
  Pick<TrackingEventRecord, 'campaignId' | 'recipientKey'>;
const open = (fields: EventFields & { seconds?: number }): TrackingEventRecord => ({
  id: randomUUID(),
  kind: 'open',
  locale: 'en',
  linkIndex: null,
  trap: false,
  at: after(fields.seconds ?? 600),
  sentAt: SENT,
  verdict: 'person',
  rule: null,
  ...fields,
});
const click = (linkIndex: number, fields: EventFields & { seconds?: number }) =>
  open({ kind: 'click', linkIndex, ...fields });

type EventWriter = ReturnType<typeof createCampaignEventWriter>;

/**
 * One open counted as batch "first", then the same batch retried as
 * "crashed": a first run of it had added its +1 to the campaign (its mark
 * set) and crashed before clearing the recipient's pending change.
 */
async function retryAfterItsIncLanded(writer: EventWriter, address: string) {
  const { id, key } = await sentCampaign();
  const recipientKey = recipientKeyOf(key, address);
  const batch = [open({ campaignId: id, recipientKey })];
  await writer.write(batch, 'first');
  const _id = `${id}:${recipientKey}`;
  const pending = { batch: 'crashed', delta: [{ path: 'opens.people.total', value: 1 }] };
  await activityCollection().updateOne({ _id }, { $set: { pending } });
  await CampaignResultsModel.collection.updateOne(
    { _id: new Types.ObjectId(id) },
    { $inc: { 'counters.opens.people.total': 1 }, $set: { 'marks.crashed': 1 } },
  );
  await writer.write(batch, 'crashed');
  return { id, _id, batch, pending };
}

describe('the campaign event writer', () => {
  useFileDatabase('campaign-event-writer');
  const writer = createCampaignEventWriter(createLogger('test', 'silent'));

  it('counts a privacy proxy’s prefetch as a machine’s open, not a person’s', async () => {
    const { id, key } = await sentCampaign();
    const recipientKey = recipientKeyOf(key, 'amira@example.com');
    await writer.write(
      [
        open({
          campaignId: id,
          recipientKey,
          seconds: 1,
          verdict: 'machine',
          rule: 'apple-privacy-proxy-network',
        }),
      ],
      randomUUID(),
    );
    const report = await readCampaignReport(id);
    expect(report.opens).toEqual({
      people: { unique: 0, total: 0 },
      machines: { unique: 1, total: 1 },
      implied: 0,
    });
    expect(report.rates.open).toBe(0);
  });

  it('marks a scanner that follows every link within 2 s, and its trap click, as scanner clicks', async () => {
    const { id, key } = await sentCampaign();
    const recipientKey = recipientKeyOf(key, 'sami@example.com');
    await writer.write(
      [
        click(0, { campaignId: id, recipientKey, seconds: 0.5 }),
        click(1, { campaignId: id, recipientKey, seconds: 1 }),
        click(2, { campaignId: id, recipientKey, seconds: 1.5 }),
        click(3, {
          campaignId: id,
          recipientKey,
          seconds: 2,
          trap: true,
          verdict: 'scanner',
          rule: 'trap-link',
        }),
      ],
      randomUUID(),
    );
    const report = await readCampaignReport(id);
    expect(report.clicks).toEqual({
      people: { unique: 0, total: 0 },
      scanners: { unique: 1, total: 4 },
    });
    expect(report.opens.implied).toBe(0);
    expect(report.links.map((link) => [link.url, link.people.total, link.scanners.total])).toEqual(
      LINKS.map((url) => [url, 0, 1]),
    );
  });

  it('implies a person’s open from a click without one, and tells unique from total', async () => {
    const { id, key } = await sentCampaign();
    const clicker = recipientKeyOf(key, 'leila@example.com');
    const reader = recipientKeyOf(key, 'karim@example.com');
    await writer.write(
      [
        click(1, { campaignId: id, recipientKey: clicker, seconds: 300, locale: 'fr' }),
        click(1, { campaignId: id, recipientKey: clicker, seconds: 320, locale: 'fr' }),
        open({ campaignId: id, recipientKey: reader, seconds: 400 }),
        open({ campaignId: id, recipientKey: reader, seconds: 4000 }),
      ],
      randomUUID(),
    );
    const report = await readCampaignReport(id);
    expect(report.opens).toEqual({
      people: { unique: 2, total: 3 },
      machines: { unique: 0, total: 0 },
      implied: 1,
    });
    expect(report.clicks.people).toEqual({ unique: 1, total: 2 });
    expect(report.links[1]?.people).toEqual({ unique: 1, total: 2 });
    expect(report.rates).toEqual({ open: 20, click: 10 });
    expect(report.languages.find((row) => row.locale === 'fr')).toMatchObject({
      opened: 1,
      clicked: 1,
    });
    expect(report.timeline).toEqual([
      { at: '2026-05-04T10:00:00.000Z', bucket: 'hour', opens: 2, clicks: 2 },
      { at: '2026-05-04T11:00:00.000Z', bucket: 'hour', opens: 1, clicks: 0 },
    ]);
  });

  it('turns an early open into a person’s when the click comes in a later batch', async () => {
    const { id, key } = await sentCampaign();
    const recipientKey = recipientKeyOf(key, 'nour@example.com');
    await writer.write(
      [open({ campaignId: id, recipientKey, seconds: 3, verdict: 'machine', rule: 'early-open' })],
      randomUUID(),
    );
    expect((await readCampaignReport(id)).opens.machines).toEqual({ unique: 1, total: 1 });
    await writer.write([click(0, { campaignId: id, recipientKey, seconds: 200 })], randomUUID());
    const report = await readCampaignReport(id);
    expect(report.opens).toEqual({
      people: { unique: 1, total: 1 },
      machines: { unique: 0, total: 0 },
      implied: 0,
    });
  });

  it('counts a batch delivered twice once', async () => {
    const { id, key } = await sentCampaign();
    const recipientKey = recipientKeyOf(key, 'youssef@example.com');
    const batch = [
      open({ campaignId: id, recipientKey }),
      click(0, { campaignId: id, recipientKey }),
    ];
    expect(await writer.write(batch, 'batch-1')).toEqual({ counted: 2, repeated: 0, dropped: 0 });
    expect(await writer.write(batch, 'batch-1')).toEqual({ counted: 0, repeated: 2, dropped: 0 });
    const report = await readCampaignReport(id);
    expect(report.opens.people).toEqual({ unique: 1, total: 1 });
    expect(report.clicks.people).toEqual({ unique: 1, total: 1 });
  });

  it('applies a batch retried after a crash once, whether or not its $inc had landed', async () => {
    // Crashed after its $inc, before clearing: the mark is there, nothing is added again.
    const { id, _id, batch, pending } = await retryAfterItsIncLanded(writer, 'crash@example.com');
    expect((await readCampaignReport(id)).opens.people.total).toBe(2);
    expect((await CampaignActivityModel.findById(_id).lean())?.pending).toBeNull();
    expect((await CampaignResultsModel.findById(id).lean())?.marks).toEqual({});
    // Crashed before its $inc: no mark, so the pending change is added, once.
    await activityCollection().updateOne(
      { _id },
      { $set: { pending: { ...pending, batch: 'lost' } } },
    );
    await writer.write(batch, 'lost');
    await writer.write(batch, 'lost');
    expect((await readCampaignReport(id)).opens.people.total).toBe(3);
    expect((await CampaignActivityModel.findById(_id).lean())?.pending).toBeNull();
  });

  it('does not carry a change whose batch’s $inc landed into the next batch', async () => {
    const { id, key } = await sentCampaign();
    const recipientKey = recipientKeyOf(key, 'landed@example.com');
    await writer.write([open({ campaignId: id, recipientKey })], 'before');
    // Batch "landed" added its +1 and crashed before clearing its recipient's change.
    await activityCollection().updateOne(
      { _id: `${id}:${recipientKey}` },
      { $set: { pending: { batch: 'landed', delta: [{ path: 'opens.people.total', value: 1 }] } } },
    );
    await CampaignResultsModel.collection.updateOne(
      { _id: new Types.ObjectId(id) },
      { $inc: { 'counters.opens.people.total': 1 }, $set: { 'marks.landed': 1 } },
    );
    await writer.write([open({ campaignId: id, recipientKey })], 'after');
    expect((await readCampaignReport(id)).opens.people).toEqual({ unique: 1, total: 3 });
  });

  it('carries a change another batch left pending into the next batch of the recipient', async () => {
    const { id, key } = await sentCampaign();
    const recipientKey = recipientKeyOf(key, 'carried@example.com');
    await writer.write([open({ campaignId: id, recipientKey })], 'one');
    await activityCollection().updateOne(
      { _id: `${id}:${recipientKey}` },
      {
        $set: { pending: { batch: 'gave-up', delta: [{ path: 'opens.people.total', value: 1 }] } },
      },
    );
    await writer.write([open({ campaignId: id, recipientKey })], 'two');
    expect((await readCampaignReport(id)).opens.people).toEqual({ unique: 1, total: 3 });
  });

  it('drops the events of an unknown campaign and of a campaign whose key is destroyed', async () => {
    const { id, key } = await sentCampaign();
    await CampaignModel.updateOne(
      { _id: id },
      { $set: { 'tracking.key': null, 'tracking.keyDestroyedAt': new Date() } },
    );
    const recipientKey = recipientKeyOf(key, 'gone@example.com');
    const report = await writer.write(
      [
        open({ campaignId: id, recipientKey }),
        open({ campaignId: String(new Types.ObjectId()), recipientKey }),
        open({ campaignId: 'not-an-id', recipientKey }),
      ],
      randomUUID(),
    );
    expect(report).toEqual({ counted: 0, repeated: 0, dropped: 3 });
    expect(await CampaignActivityModel.countDocuments({ recipientKey })).toBe(0);
  });

  it('keeps a recipient’s earliest events up to the limit', async () => {
    const { id, key } = await sentCampaign();
    const recipientKey = recipientKeyOf(key, 'hammered@example.com');
    const opens = Array.from({ length: ACTIVITY_EVENT_LIMIT + 50 }, (_, index) =>
      open({ campaignId: id, recipientKey, seconds: 100 + index }),
    );
    await writer.write(opens.slice(0, ACTIVITY_EVENT_LIMIT - 10), randomUUID());
    const report = await writer.write(opens.slice(ACTIVITY_EVENT_LIMIT - 10), randomUUID());
    expect(report.counted).toBe(10);
    const stored = await CampaignActivityModel.findOne({ recipientKey }).lean();
    expect(stored?.events).toHaveLength(ACTIVITY_EVENT_LIMIT);
    expect(stored?.events.at(-1)?.id).toBe(opens[ACTIVITY_EVENT_LIMIT - 1]?.id);
    expect((await readCampaignReport(id)).opens.people.total).toBe(ACTIVITY_EVENT_LIMIT);
  });

  it('drops malformed events and counts the rest', async () => {
    const { id, key } = await sentCampaign();
    const recipientKey = recipientKeyOf(key, 'shape@example.com');
    const good = open({ campaignId: id, recipientKey });
    const malformed = [
      { ...good, id: randomUUID(), locale: 'de' },
      { ...good, id: randomUUID(), recipientKey: 'amira@example.com' },
      { ...good, id: randomUUID(), linkIndex: 2 },
      { ...good, id: randomUUID(), kind: 'click', linkIndex: null },
      { ...good, id: randomUUID(), at: 'yesterday' },
      { ...good, id: randomUUID(), verdict: 'robot' },
      { ...good, id: randomUUID(), source: 255 },
      { ...good, id: randomUUID(), source: -1 },
      { ...good, id: randomUUID(), source: 'list' },
    ] as TrackingEventRecord[];
    expect(await writer.write([good, ...malformed], 'batch.with.dots')).toEqual({
      counted: 1,
      repeated: 0,
      dropped: malformed.length,
    });
    expect((await readCampaignReport(id)).opens.people).toEqual({ unique: 1, total: 1 });
    expect((await CampaignResultsModel.findById(id).lean())?.marks).toEqual({});
  });

  it('finds a recipient of a ledger batch added after the campaign’s first events', async () => {
    const { id, key } = await sentCampaign('individual');
    const batch = (seq: number, email: string) =>
      CampaignBatchModel.create({
        _id: `${id}:1:${seq}`,
        campaign: id,
        round: 1,
        seq,
        createdAt: new Date(),
        recipients: [{ key: `k${seq}`, email, locale: 'en' }],
      });
    const openOf = (email: string) =>
      open({ campaignId: id, recipientKey: recipientKeyOf(key, email) });
    await batch(0, 'first@example.com');
    await writer.write([openOf('first@example.com')], randomUUID());
    await batch(1, 'second@example.com');
    await writer.write([openOf('second@example.com')], randomUUID());
    const stored = await CampaignActivityModel.find({ campaign: id }, { email: 1 }).lean();
    expect(stored.map((doc) => doc.email).sort()).toEqual([
      'first@example.com',
      'second@example.com',
    ]);
  });

  it('reads the report in three reads however many recipients and events there are', async () => {
    const { id, key } = await sentCampaign();
    const events = Array.from({ length: 400 }, (_, index) => [
      open({ campaignId: id, recipientKey: recipientKeyOf(key, `r${index}@example.com`) }),
      click(index % 3, {
        campaignId: id,
        recipientKey: recipientKeyOf(key, `r${index}@example.com`),
      }),
    ]).flat();
    await writer.write(events, randomUUID());
    const reads: string[] = [];
    mongoose.set('debug', (collection: string, method: string) => {
      reads.push(`${collection}.${method}`);
    });
    try {
      const report = await readCampaignReport(id);
      expect(report.opens.people).toEqual({ unique: 400, total: 400 });
    } finally {
      mongoose.set('debug', false);
    }
    expect(reads.sort()).toEqual([
      'campaignresults.findOne',
      'campaigns.findOne',
      'mailevents.find',
    ]);
  });

  it("reads one more, the lists' names, for a campaign to lists", async () => {
    const { id, key } = await sentCampaign();
    const lists = Array.from({ length: 50 }, () => new Types.ObjectId());
    await CampaignModel.updateOne({ _id: id }, { recipientType: 'lists', listIds: lists });
    // Counted once: the first round's mails per language are then kept.
    await writer.write(
      [open({ campaignId: id, recipientKey: recipientKeyOf(key, 'a@example.com'), source: 7 })],
      randomUUID(),
    );
    const reads: string[] = [];
    mongoose.set('debug', (collection: string, method: string) => {
      if (method !== 'createIndex') reads.push(`${collection}.${method}`);
    });
    try {
      expect((await readCampaignReport(id)).sources).toHaveLength(50);
    } finally {
      mongoose.set('debug', false);
    }
    expect(reads.sort()).toEqual([
      'campaignresults.findOne',
      'campaigns.findOne',
      'mailevents.find',
      'mailinglists.find',
    ]);
  });

  const notASegment = { segmentId: null, segmentName: null };
  /** A source row that is neither a list nor a segment, with nothing opened or clicked. */
  const noRow = {
    ...notASegment,
    listId: null,
    listName: null,
    opened: 0,
    clicked: 0,
    rates: { open: 0, click: 0 },
  };

  it("counts people per list under the source their tokens name, a deleted list's too, and older tokens apart", async () => {
    const { id, key } = await sentCampaign();
    const [kept, deleted] = [new Types.ObjectId(), new Types.ObjectId()];
    await MailingListModel.create({ _id: kept, name: 'Clients 2026' });
    await CampaignModel.updateOne(
      { _id: id },
      {
        recipientType: 'lists',
        listIds: [kept, deleted],
        mailsPerSource: { s0: 4, s1: 3, unknown: 1 },
      },
    );
    const who = (name: string) => ({ campaignId: id, recipientKey: recipientKeyOf(key, name) });
    await writer.write(
      [
        open({ ...who('a'), source: 0 }),
        open({ ...who('a'), source: 0 }),
        click(1, { ...who('b'), source: 0 }),
        open({ ...who('c'), source: 0, seconds: 1, verdict: 'machine', rule: 'early-open' }),
        click(0, { ...who('d'), source: 1 }),
        // A token mailed before sources were kept.
        open({ ...who('e'), source: null }),
      ],
      randomUUID(),
    );
    // A later event of a recipient whose source is known keeps it.
    await writer.write([open({ ...who('d') })], randomUUID());

    expect((await readCampaignReport(id)).sources).toEqual([
      {
        ...notASegment,
        kind: 'list',
        listId: String(kept),
        listName: 'Clients 2026',
        delivered: 4,
        opened: 2,
        clicked: 1,
        rates: { open: 50, click: 25 },
      },
      {
        ...notASegment,
        kind: 'list',
        listId: String(deleted),
        listName: null,
        delivered: 3,
        opened: 1,
        clicked: 1,
        rates: { open: 33.3, click: 33.3 },
      },
      {
        ...notASegment,
        kind: 'unknown',
        listId: null,
        listName: null,
        delivered: 1,
        opened: 1,
        clicked: 0,
        rates: { open: 100, click: 0 },
      },
    ]);
  });

  it('reads one row per source of a campaign to contacts and subscribers, with no unknown row when none was counted', async () => {
    const { id } = await sentCampaign();
    await CampaignModel.updateOne({ _id: id }, { mailsPerSource: { s0: 6, s1: 4 } });
    const report = await readCampaignReport(id);
    expect(report.sources).toEqual([
      { ...noRow, kind: 'contacts', delivered: 6 },
      { ...noRow, kind: 'subscribers', delivered: 4 },
    ]);
    await CampaignModel.updateOne({ _id: id }, { recipientType: 'subscribers' });
    expect((await readCampaignReport(id)).sources.map((row) => row.kind)).toEqual(['subscribers']);
  });

  it('rewrites recipients seen before in commands small enough for the store to finish', async () => {
    const { id, key } = await sentCampaign();
    const recipients = Array.from({ length: 3 * UPDATE_STATEMENTS_PER_COMMAND }, (_, index) =>
      recipientKeyOf(key, `r${index}@example.com`),
    );
    await writer.write(
      recipients.map((recipientKey) => open({ campaignId: id, recipientKey })),
      randomUUID(),
    );
    const statements: number[] = [];
    mongoose.set('debug', (collection: string, method: string, operations: unknown) => {
      if (method === 'bulkWrite' && Array.isArray(operations)) statements.push(operations.length);
    });
    try {
      // Every recipient's document exists: on FerretDB 1.x one command of them all never ends.
      const clicks = recipients.map((recipientKey) => click(1, { campaignId: id, recipientKey }));
      await expect(writer.write(clicks, randomUUID())).resolves.toMatchObject({ counted: 150 });
    } finally {
      mongoose.set('debug', false);
    }
    // The activity documents' writes, then (on FerretDB) their pending changes' clears.
    expect(statements.slice(0, 3)).toEqual([50, 50, 50]);
    expect(Math.max(...statements)).toBe(UPDATE_STATEMENTS_PER_COMMAND);
    const report = await readCampaignReport(id);
    expect(report.clicks.people).toEqual({ unique: 150, total: 150 });
    expect(report.links[1]?.people).toEqual({ unique: 150, total: 150 });
  }, 20_000);

  it('names the recipient in individual mode only, from the ledger’s addresses', async () => {
    const individual = await sentCampaign('individual');
    const anonymous = await sentCampaign('anonymous');
    for (const campaign of [individual, anonymous]) {
      await CampaignBatchModel.create({
        _id: `${campaign.id}:1:0`,
        campaign: campaign.id,
        round: 1,
        seq: 0,
        createdAt: new Date(),
        recipients: [{ key: 'k', email: 'Amira@Example.com', locale: 'fr' }],
      });
      await writer.write(
        [
          click(2, {
            campaignId: campaign.id,
            recipientKey: recipientKeyOf(campaign.key, 'amira@example.com'),
            locale: 'fr',
          }),
        ],
        randomUUID(),
      );
    }
    const page = await readCampaignPeoplePage(individual.id, {
      page: 1,
      pageSize: 20,
      sort: 'email',
      filter: 'clicked',
    });
    expect(page.total).toBe(1);
    expect(page.items[0]).toMatchObject({
      email: 'amira@example.com',
      locale: 'fr',
      opened: true,
      openImplied: true,
      clicks: 1,
      clickedLinks: [{ index: 2, url: LINKS[2] }],
    });
    const anonymousActivity = await CampaignActivityModel.find({ campaign: anonymous.id }).lean();
    expect(anonymousActivity.map((activity) => activity.email)).toEqual([null]);
    await expect(
      readCampaignPeoplePage(anonymous.id, { page: 1, pageSize: 20, sort: 'email', filter: 'any' }),
    ).rejects.toMatchObject({ code: 'CONFLICT' });
    expect((await readCampaignReport(individual.id)).languages).toEqual([
      { locale: 'fr', delivered: 1, opened: 1, clicked: 1 },
    ]);
  });
});

describe.each(ON_AND_OFF)('the campaign event writer with reads by exact _id %s', (_, on) => {
  useFileDatabase('campaign-event-writer-by-id');
  withStoreWorkarounds({ readsByIdOnly: on });
  const writer = createCampaignEventWriter(createLogger('test', 'silent'));

  /** The filters of the writer's reads and updates of activity documents while `write` runs. */
  async function activityFilters(write: () => Promise<unknown>): Promise<unknown[]> {
    const filters: unknown[] = [];
    mongoose.set('debug', (collection: string, method: string, ...args: unknown[]) => {
      if (collection !== 'campaignactivities') return;
      if (method === 'bulkWrite' && Array.isArray(args[0])) {
        for (const operation of args[0] as Record<string, { filter?: unknown }>[]) {
          filters.push(Object.values(operation)[0]?.filter);
        }
      } else filters.push(args[0]);
    });
    try {
      await write();
    } finally {
      mongoose.set('debug', false);
    }
    return filters;
  }

  it('reads and clears a batch’s recipients by their ids, never the campaign’s others', async () => {
    const { id, key } = await sentCampaign();
    const keys = ['a', 'b', 'c'].map((name) => recipientKeyOf(key, `${name}@example.com`));
    await writer.write(
      keys.map((recipientKey) => open({ campaignId: id, recipientKey })),
      randomUUID(),
    );
    const filters = await activityFilters(() =>
      writer.write(
        keys.map((recipientKey) => click(0, { campaignId: id, recipientKey })),
        randomUUID(),
      ),
    );
    const ids = keys.map((recipientKey) => `${id}:${recipientKey}`);
    const byId = filters.filter(
      (filter) => typeof filter === 'object' && filter !== null && '_id' in filter,
    );
    // Every read and write names its documents; exactly `{ _id }` where the store needs it.
    expect(byId).toHaveLength(filters.length);
    if (on) expect(filters).toEqual(expect.arrayContaining(ids.map((_id) => ({ _id }))));
    if (on)
      expect(filters.every((filter) => Object.keys(filter as object).length === 1)).toBe(true);
    else expect(filters).toContainEqual({ _id: { $in: ids } });
    expect((await readCampaignReport(id)).clicks.people).toEqual({ unique: 3, total: 3 });
    const pending = await CampaignActivityModel.find({ campaign: id }, { pending: 1 }).lean();
    expect(pending.map((doc) => doc.pending)).toEqual([null, null, null]);
  });

  it('clears a retried batch’s pending change once its $inc had landed', async () => {
    const { id, _id } = await retryAfterItsIncLanded(writer, 'retried@example.com');
    expect((await readCampaignReport(id)).opens.people.total).toBe(2);
    expect((await CampaignActivityModel.findById(_id).lean())?.pending).toBeNull();
    expect((await CampaignResultsModel.findById(id).lean())?.marks).toEqual({});
  });
});
