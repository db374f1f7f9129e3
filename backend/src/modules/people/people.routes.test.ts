import { Writable } from 'node:stream';
import { Types } from 'mongoose';
import { pino } from 'pino';
import { PEOPLE_BULK_MAX, PEOPLE_EXPORT_COLUMNS, type Locale, type Role } from '@agency/contracts';
import {
  createStalePeople,
  erasedAddressDigest,
  erasureKeyOf,
  peopleSubscriberChanges,
  PEOPLE_REFRESHED_AT_ONCE,
  PERSON_FILTER_FIELDS,
  rebuildPeople,
  refreshPeopleOfImport,
  refreshPeople,
  removeListMembersChunk,
  requestSubscription,
  signConfirmationToken,
  signUnsubscribeToken,
  stalePeopleKeys,
  withSearchKeys,
  writeImportedMembers,
} from '@agency/platform';
import {
  ListImportModel,
  ListMemberModel,
  MailEventModel,
  MailingListModel,
  PersonModel,
  SubscriberModel,
  SuppressionModel,
} from '@agency/platform/testing/audience-models';
import { ContactModel } from '@agency/platform/testing/contact-models';
import { ErasureModel } from '@agency/platform/testing/privacy-models';
import {
  CampaignBatchModel,
  CampaignModel,
  CampaignOutcomeModel,
} from '@agency/platform/testing/campaigns-models';
import { createTestContext, type TestContext } from '../../testing/test-context';
import { as, oneUserPerRole, unknownId, type SignedInUser } from '../../testing/admin-fixtures';
import { ActivityLogModel } from '@agency/platform/testing/activity-models';

let ctx: TestContext;
let users: Record<Role, SignedInUser>;
/** What the API logged, message by message. */
const logged: string[] = [];
const logSink = new Writable({
  write(chunk: Buffer, _encoding, done) {
    logged.push(String((JSON.parse(chunk.toString()) as { msg?: unknown }).msg));
    done();
  },
});

beforeAll(async () => {
  ctx = await createTestContext({ logger: pino({ level: 'warn' }, logSink) });
  users = await oneUserPerRole(ctx);
  await PersonModel.init();
});
afterAll(async () => {
  await ctx.close();
});
beforeEach(async () => {
  await Promise.all(
    [
      PersonModel,
      ContactModel,
      SubscriberModel,
      ListMemberModel,
      MailingListModel,
      SuppressionModel,
      MailEventModel,
      CampaignModel,
      CampaignBatchModel,
      CampaignOutcomeModel,
    ].map((model) => (model as typeof PersonModel).deleteMany({})),
  );
});

const manager = () => as(ctx, users.manager);
const stalePeople = () => createStalePeople(ctx.redis, ctx.config.queuePrefix);
/** The stored person, once the addresses a visitor's write marked are refreshed, as the worker's pass does. */
async function person(email: string) {
  await stalePeople().refreshMarked();
  return PersonModel.findById(email).lean();
}

interface Row {
  key: string;
}
async function keysOf(query: string): Promise<string[]> {
  const page = await manager().get(`/api/admin/people${query}`);
  expect(page.status).toBe(200);
  return page.body.items.map((row: Row) => row.key);
}

async function createList(name: string): Promise<string> {
  const created = await manager().post('/api/admin/lists', { name });
  expect(created.status).toBe(201);
  return created.body.id as string;
}

const day = (iso: string) => new Date(`${iso}T12:00:00.000Z`);

/** An enquiry as the form stores it, dated `at`, with or without the "send me news" box ticked. */
async function storedEnquiry(
  email: string,
  fields: {
    at?: Date;
    firstName?: string;
    lastName?: string;
    consent?: boolean;
    locale?: Locale;
  },
) {
  const at = fields.at ?? new Date();
  const contact = await ContactModel.create({
    ...withSearchKeys({
      firstName: fields.firstName ?? 'Amira',
      lastName: fields.lastName ?? 'Ben Salah',
      email,
    }),
    service: 'web-design',
    message: 'A new website, please.',
    locale: fields.locale ?? 'en',
    createdAt: at,
    updatedAt: at,
  });
  if (fields.consent) {
    await ContactModel.collection.updateOne(
      { _id: contact._id },
      { $set: { consent: { requestedAt: at } } },
    );
  }
  return String(contact._id);
}

async function member(
  listId: string,
  email: string,
  fields: { tags?: string[]; at?: Date; locale?: Locale } = {},
) {
  const key = email.toLowerCase();
  const at = fields.at ?? new Date();
  await ListMemberModel.create({
    _id: `${listId}:${key}`,
    list: listId,
    key,
    email,
    locale: fields.locale ?? 'en',
    tags: fields.tags ?? [],
    consent: { basis: 'import', at, file: 'expo.csv', listName: 'Expo' },
    createdAt: at,
    updatedAt: at,
  });
}

describe('the people view', () => {
  it('is one row per address across sources, with every source and list', async () => {
    const expo = await createList('Expo');
    const fair = await createList('Fair');
    for (const id of [expo, fair]) {
      const added = await manager().post(`/api/admin/lists/${id}/members`, {
        email: 'Rim@Example.tn',
        tags: ['vip'],
      });
      expect(added.status).toBe(201);
    }
    const enquiry = await as(ctx, null).post('/api/contact', {
      firstName: 'Rim',
      lastName: 'Gharbi',
      email: 'RIM@example.tn',
      phone: '+216 20 123 456',
      service: 'web-design',
      message: 'We need a new website for our shop.',
    });
    expect(enquiry.status).toBe(201);
    await requestSubscription(
      { email: 'rim@example.tn', locale: 'fr', source: 'newsletter-banner', ip: '203.0.113.9' },
      peopleSubscriberChanges(PEOPLE_REFRESHED_AT_ONCE),
    );

    const page = await manager().get('/api/admin/people');
    expect(page.body.items).toHaveLength(1);
    expect(page.body.items[0]).toMatchObject({
      key: 'rim@example.tn',
      firstName: 'Rim',
      lastName: 'Gharbi',
      locale: 'fr',
      sources: ['contact', 'subscriber', 'list'],
      listIds: [expo, fair].sort(),
      tags: ['vip'],
      consent: 'given',
      subscriberStatus: 'pending',
      suppressed: false,
    });
    // Exactly the row's fields: what only search and segments read stays in the store.
    expect(Object.keys(page.body.items[0]).sort()).toEqual([
      'consent',
      'email',
      'firstName',
      'firstSeenAt',
      'key',
      'lastName',
      'lastSeenAt',
      'listIds',
      'locale',
      'sources',
      'subscriberStatus',
      'suppressed',
      'tags',
    ]);
    expect(page.body.items[0].firstSeenAt).toMatch(/^\d{4}-\d{2}-\d{2}T.*Z$/);
    expect(page.body).toMatchObject({ total: 1, totalKind: 'exact', next: null, previous: null });
  });

  it('filters by list, tag, language, source, consent, suppression and first-seen day', async () => {
    const expo = await createList('Expo');
    await storedEnquiry('old@example.tn', { at: day('2026-01-10'), locale: 'ar' });
    await storedEnquiry('asked@example.tn', { at: day('2026-02-10'), consent: true });
    await member(expo, 'listed@example.tn', { tags: ['vip'], at: day('2026-03-10') });
    await member(expo, 'plain@example.tn', { at: day('2026-03-11'), locale: 'fr' });
    await SubscriberModel.create({
      email: 'left@example.tn',
      status: 'unsubscribed',
      unsubscribedAt: day('2026-04-02'),
      createdAt: day('2026-04-01'),
    });
    await SuppressionModel.create({
      _id: 'old@example.tn',
      email: 'old@example.tn',
      reason: 'hard-bounce',
      source: 'ses',
      at: new Date(),
    });
    await rebuildPeople();

    expect(await keysOf(`?listId=${expo}`)).toEqual(['plain@example.tn', 'listed@example.tn']);
    expect(await keysOf('?tag=vip')).toEqual(['listed@example.tn']);
    expect(await keysOf('?locale=ar')).toEqual(['old@example.tn']);
    expect(await keysOf('?locale=fr')).toEqual(['plain@example.tn']);
    expect(await keysOf('?source=subscriber')).toEqual(['left@example.tn']);
    expect(await keysOf('?source=contact')).toEqual(['asked@example.tn', 'old@example.tn']);
    expect(await keysOf('?consent=withdrawn')).toEqual(['left@example.tn']);
    expect(await keysOf('?consent=none')).toEqual(['old@example.tn']);
    expect(await keysOf('?consent=given&sort=email')).toEqual([
      'asked@example.tn',
      'listed@example.tn',
      'plain@example.tn',
    ]);
    expect(await keysOf('?suppressed=yes')).toEqual(['old@example.tn']);
    expect(await keysOf('?suppressed=no')).not.toContain('old@example.tn');
    expect(await keysOf('?since=2026-02-10&until=2026-03-10')).toEqual([
      'listed@example.tn',
      'asked@example.tn',
    ]);

    for (const bad of ['?source=lead', '?consent=maybe', '?suppressed=1', '?since=2026-13-01']) {
      const refused = await manager().get(`/api/admin/people${bad}`);
      expect(refused.status).toBe(400);
    }
    const twice = await manager().get('/api/admin/people?tag=vip&tag=other');
    expect(twice.status).toBe(400);
    expect(twice.body.error.fields.tag).toBeDefined();
  });

  it('searches by the start of a name or address, and by domain after "@"', async () => {
    await storedEnquiry('sales@eu.acme.tn', { firstName: 'Hédi', lastName: 'Ben Salah' });
    await storedEnquiry('nour@other.tn', { firstName: 'Nour', lastName: 'Acme' });
    await storedEnquiry('x.acme@mail.tn', { firstName: 'Zied', lastName: 'Kefi' });
    await rebuildPeople();

    expect(await keysOf('?search=hedi')).toEqual(['sales@eu.acme.tn']);
    expect(await keysOf('?search=sal&sort=email')).toEqual(['sales@eu.acme.tn']);
    expect(await keysOf('?search=x.ac')).toEqual(['x.acme@mail.tn']);
    expect(await keysOf('?search=%40acme.tn')).toEqual(['sales@eu.acme.tn']);
    expect(await keysOf('?search=%40eu.ac')).toEqual(['sales@eu.acme.tn']);
    expect(await keysOf('?search=%40mail')).toEqual(['x.acme@mail.tn']);
    // A domain search never matches a name, nor an address's local part.
    expect(await keysOf('?search=%40ac')).toEqual(['sales@eu.acme.tn']);
    expect(await keysOf('?search=%28.*')).toEqual([]);
  });

  it('pages by keyset, forwards and back, refusing a forged position', async () => {
    for (let index = 0; index < 5; index += 1) {
      await storedEnquiry(`p${index}@example.tn`, { at: day(`2026-01-1${index}`) });
    }
    await rebuildPeople();
    const first = await manager().get('/api/admin/people?pageSize=2');
    expect(first.body.items.map((row: Row) => row.key)).toEqual(['p4@example.tn', 'p3@example.tn']);
    const second = await manager().get(`/api/admin/people?pageSize=2&after=${first.body.next}`);
    expect(second.body.items.map((row: Row) => row.key)).toEqual([
      'p2@example.tn',
      'p1@example.tn',
    ]);
    const back = await manager().get(`/api/admin/people?pageSize=2&before=${second.body.previous}`);
    expect(back.body.items.map((row: Row) => row.key)).toEqual(['p4@example.tn', 'p3@example.tn']);
    const last = await manager().get(`/api/admin/people?pageSize=2&after=${second.body.next}`);
    expect(last.body.items.map((row: Row) => row.key)).toEqual(['p0@example.tn']);
    expect(last.body.next).toBeNull();

    const byEmail = await manager().get('/api/admin/people?pageSize=3&sort=email');
    const rest = await manager().get(
      `/api/admin/people?pageSize=3&sort=email&after=${byEmail.body.next}`,
    );
    expect(rest.body.items.map((row: Row) => row.key)).toEqual(['p3@example.tn', 'p4@example.tn']);

    const forged = await manager().get(`/api/admin/people?after=${first.body.next}&sort=email`);
    expect(forged.status).toBe(400);
    expect(forged.body.error.fields.after).toMatch(/Not a position/);
    const garbage = await manager().get('/api/admin/people?before=bm90IGpzb24');
    expect(garbage.status).toBe(400);
    expect(garbage.body.error.fields.before).toMatch(/Not a position/);
  });

  it('exports the matching people as CSV, with list names, and logs it', async () => {
    const expo = await createList('Expo');
    await member(expo, 'Listed@Example.tn', { tags: ['vip', 'b2b'] });
    await storedEnquiry('other@example.tn', {});
    await rebuildPeople();
    const csv = await manager().get(`/api/admin/people/export?listId=${expo}`);
    expect(csv.status).toBe(200);
    expect(csv.headers['content-type']).toMatch(/text\/csv/);
    const lines = csv.text
      .replace(/^\uFEFF/, '')
      .trim()
      .split(/\r?\n/);
    expect(lines[0]).toBe(PEOPLE_EXPORT_COLUMNS.join(','));
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(/^Listed@Example\.tn,,,en,list,Expo,b2b; vip,given,,no,/);
    const logged = await ActivityLogModel.findOne({ action: 'people.export' }).lean();
    expect(logged?.target).toMatchObject({ type: 'people' });
    expect((await as(ctx, users.editor).get('/api/admin/people/export')).status).toBe(403);
  });

  it('keeps an index for each filter and order', async () => {
    const indexes = await PersonModel.collection.indexes();
    const leading = indexes.map(({ key }) => Object.keys(key)[0]);
    for (const field of PERSON_FILTER_FIELDS) expect(leading).toContain(field);
    expect(indexes.map(({ key }) => key)).toContainEqual({ firstSeenAt: -1, _id: -1 });
    const batchIndexes = await CampaignBatchModel.collection.indexes();
    expect(batchIndexes.map(({ key }) => Object.keys(key)[0])).toContain('recipients.key');
  });
});

describe("a person's page", () => {
  it('shows every record, consent event, campaign mail and bounce of the address', async () => {
    const expo = await createList('Expo');
    await member(expo, 'dina@example.tn', { tags: ['vip'], at: day('2026-02-01') });
    const enquiryId = await storedEnquiry('Dina@Example.tn', {
      at: day('2026-01-01'),
      consent: true,
    });
    await SubscriberModel.create({
      email: 'dina@example.tn',
      status: 'unsubscribed',
      locale: 'fr',
      consent: {
        requestedAt: day('2026-01-05'),
        locale: 'fr',
        source: 'newsletter-banner',
        wordingVersion: '1',
        confirmedAt: day('2026-01-06'),
      },
      confirmedAt: day('2026-01-06'),
      unsubscribedAt: day('2026-03-01'),
      unsubscribeMethod: 'page',
    });
    await SuppressionModel.create({
      _id: 'dina@example.tn',
      email: 'dina@example.tn',
      reason: 'unsubscribe',
      source: 'unsubscribe-link',
      at: day('2026-03-01'),
    });
    const campaign = await CampaignModel.create({
      name: 'Spring offer',
      subject: 'Spring',
      content: '<p>Hi</p>',
    });
    const campaignId = String(campaign._id);
    await CampaignBatchModel.create({
      _id: `${campaignId}:1:0`,
      campaign: campaign._id,
      round: 1,
      seq: 0,
      createdAt: day('2026-02-15'),
      recipients: [
        { key: 'someone@example.tn', email: 'someone@example.tn' },
        { key: 'dina@example.tn', email: 'Dina@Example.tn' },
      ],
    });
    await CampaignOutcomeModel.create({
      _id: `${campaignId}:1:0`,
      campaign: campaign._id,
      round: 1,
      seq: 0,
      outcomes: [
        { position: 0, email: 'someone@example.tn', state: 'sent', attempts: 1, at: new Date() },
        {
          position: 1,
          email: 'Dina@Example.tn',
          state: 'failed',
          reason: '550 mailbox full',
          attempts: 1,
          at: day('2026-02-16'),
        },
      ],
    });
    await MailEventModel.create({
      _id: 'ses:1',
      provider: 'ses',
      kind: 'soft-bounce',
      key: 'dina@example.tn',
      email: 'dina@example.tn',
      campaign: campaign._id,
      at: day('2026-02-16'),
    });

    const page = await manager().get('/api/admin/people/DINA%40example.tn');
    expect(page.status).toBe(200);
    expect(page.body.person).toMatchObject({
      key: 'dina@example.tn',
      sources: ['contact', 'subscriber', 'list'],
      // Unsubscribed after the import that put the address in a list: the later word wins.
      consent: 'withdrawn',
      suppressed: true,
    });
    expect(page.body.enquiries).toEqual([
      {
        id: enquiryId,
        createdAt: day('2026-01-01').toISOString(),
        service: 'web-design',
        status: 'new',
      },
    ]);
    expect(page.body.subscription).toMatchObject({
      status: 'unsubscribed',
      locale: 'fr',
      confirmedAt: day('2026-01-06').toISOString(),
      unsubscribedAt: day('2026-03-01').toISOString(),
    });
    expect(page.body.memberships).toEqual([
      {
        list: { id: expo, name: 'Expo' },
        tags: ['vip'],
        basis: 'import',
        at: day('2026-02-01').toISOString(),
      },
    ]);
    expect(page.body.suppression).toEqual({
      reason: 'unsubscribe',
      at: day('2026-03-01').toISOString(),
      detail: null,
    });
    expect(page.body.consentEvents.map(({ kind }: { kind: string }) => kind)).toEqual([
      'unsubscribed',
      'suppressed',
      'list-import',
      'subscription-confirmed',
      'subscription-requested',
      'enquiry-consent',
    ]);
    expect(page.body.mails).toEqual([
      {
        campaign: { id: campaignId, name: 'Spring offer' },
        state: 'failed',
        at: day('2026-02-16').toISOString(),
        reason: '550 mailbox full',
      },
    ]);
    expect(page.body.events).toEqual([
      {
        kind: 'soft-bounce',
        at: day('2026-02-16').toISOString(),
        provider: 'ses',
        detail: null,
        campaign: { id: campaignId, name: 'Spring offer' },
      },
    ]);
  });

  it('is a 404 for an address nothing holds, and refuses an overlong one', async () => {
    expect((await manager().get('/api/admin/people/nobody%40example.tn')).status).toBe(404);
    const long = await manager().get(`/api/admin/people/${'a'.repeat(300)}%40example.tn`);
    expect(long.status).toBe(400);
    expect(long.body.error.fields.email).toBeDefined();
    expect((await as(ctx, null).get('/api/admin/people/x%40example.tn')).status).toBe(401);
    expect((await as(ctx, users.viewer).get('/api/admin/people/x%40example.tn')).status).toBe(403);
  });
});

describe('bulk actions on people', () => {
  const bulk = (body: unknown) => manager().post('/api/admin/people/bulk', body);

  it('adds to a list and removes, keeping the count, the people and the log right', async () => {
    const expo = await createList('Expo');
    await storedEnquiry('ali@example.tn', { firstName: 'Ali', lastName: 'Kefi' });
    await storedEnquiry('sara@example.tn', {});
    await rebuildPeople();
    await member(expo, 'sara@example.tn');
    await MailingListModel.updateOne({ _id: expo }, { $set: { memberCount: 1 } });

    const added = await bulk({
      action: 'add-to-list',
      listId: expo,
      emails: ['ALI@example.tn', 'sara@example.tn'],
    });
    expect(added.status).toBe(200);
    expect(added.body).toEqual({ changed: 1, unchanged: 1 });
    expect((await MailingListModel.findById(expo).lean())?.memberCount).toBe(2);
    expect(await ListMemberModel.findById(`${expo}:ali@example.tn`).lean()).toMatchObject({
      firstName: 'Ali',
      lastName: 'Kefi',
      consent: { basis: 'staff' },
    });
    expect((await person('ali@example.tn'))?.listIds).toEqual([expo]);
    const logged = await ActivityLogModel.findOne({ action: 'people.bulk' }).lean();
    expect(logged?.target).toMatchObject({ id: expo, label: 'add-to-list 2' });

    const removed = await bulk({
      action: 'remove-from-list',
      listId: expo,
      emails: ['ali@example.tn', 'nobody@example.tn'],
    });
    expect(removed.body).toEqual({ changed: 1, unchanged: 1 });
    expect((await MailingListModel.findById(expo).lean())?.memberCount).toBe(1);
    expect((await person('ali@example.tn'))?.listIds).toEqual([]);
  });

  it("never adds back an address erased at its owner's request", async () => {
    const expo = await createList('Expo');
    const erasureKey = erasureKeyOf(ctx.config.mailLinkSecret);
    await ErasureModel.create({
      _id: erasedAddressDigest(erasureKey, 'gone@example.tn'),
      state: 'done',
      requestedAt: new Date(),
    });

    const added = await bulk({
      action: 'add-to-list',
      listId: expo,
      emails: ['Gone@Example.tn', 'kept@example.tn'],
    });

    expect(added.status).toBe(200);
    expect(added.body).toEqual({ changed: 1, unchanged: 1 });
    expect(await ListMemberModel.findById(`${expo}:gone@example.tn`).lean()).toBeNull();
    expect(await ListMemberModel.findById(`${expo}:kept@example.tn`).lean()).not.toBeNull();
  });

  it('tags and untags members of the list, leaving others alone', async () => {
    const expo = await createList('Expo');
    await member(expo, 'a@example.tn', { tags: ['vip'] });
    await member(expo, 'b@example.tn');
    await member(expo, 'full@example.tn', {
      tags: Array.from({ length: 20 }, (_, index) => `t${index}`),
    });
    await rebuildPeople();
    const emails = ['a@example.tn', 'b@example.tn', 'full@example.tn', 'none@example.tn'];
    const tagged = await bulk({ action: 'tag', listId: expo, tag: 'vip', emails });
    expect(tagged.body).toEqual({ changed: 1, unchanged: 3 });
    expect((await person('b@example.tn'))?.tags).toEqual(['vip']);
    expect((await ListMemberModel.findById(`${expo}:full@example.tn`).lean())?.tags).toHaveLength(
      20,
    );

    const untagged = await bulk({ action: 'untag', listId: expo, tag: 'vip', emails });
    expect(untagged.body).toEqual({ changed: 2, unchanged: 2 });
    expect((await person('a@example.tn'))?.tags).toEqual([]);
  });

  it('refuses bad input with the field, an unknown or deleting list, and the wrong caller', async () => {
    const expo = await createList('Expo');
    const cases: [unknown, string][] = [
      [{ action: 'erase', listId: expo, emails: ['a@example.tn'] }, 'action'],
      [{ action: 'tag', listId: expo, emails: ['a@example.tn'] }, 'tag'],
      [{ action: 'add-to-list', listId: expo, emails: 'a@example.tn' }, 'emails'],
      [{ action: 'add-to-list', listId: expo, emails: [] }, 'emails'],
      [{ action: 'add-to-list', listId: expo, emails: [{ $gt: '' }] }, 'emails[0]'],
      [{ action: 'add-to-list', listId: { $gt: '' }, emails: ['a@example.tn'] }, 'listId'],
      [
        {
          action: 'add-to-list',
          listId: expo,
          emails: Array.from({ length: PEOPLE_BULK_MAX + 1 }, (_, i) => `p${i}@example.tn`),
        },
        'emails',
      ],
    ];
    for (const [body, field] of cases) {
      const refused = await bulk(body);
      expect(refused.status).toBe(400);
      expect(refused.body.error.fields[field]).toBeDefined();
    }
    const unknown = await bulk({ action: 'add-to-list', listId: unknownId(), emails: ['a@x.tn'] });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.fields.listId).toBeDefined();

    await MailingListModel.updateOne(
      { _id: expo },
      { $set: { deletion: { total: 0, removed: 0, startedAt: new Date() } } },
    );
    const deleting = await bulk({ action: 'add-to-list', listId: expo, emails: ['a@x.tn'] });
    expect(deleting.status).toBe(409);
    expect(deleting.body.error.fields.listId).toBeDefined();
    expect(await ListMemberModel.countDocuments()).toBe(0);

    const body = { action: 'add-to-list', listId: expo, emails: ['a@x.tn'] };
    expect((await as(ctx, null).post('/api/admin/people/bulk', body)).status).toBe(401);
    expect((await as(ctx, users.editor).post('/api/admin/people/bulk', body)).status).toBe(403);
  });
});

describe('the people view follows every write', () => {
  it("leaves a visitor's enquiry marked, and refreshes it before a people screen reads", async () => {
    const stored = await as(ctx, null).post('/api/contact', {
      firstName: 'Ines',
      lastName: 'Trabelsi',
      email: 'Ines@Example.tn',
      service: 'branding',
      message: 'We would like a new logo for the shop.',
    });
    expect(stored.status).toBe(201);
    // Not recomputed inside the visitor's request: only marked, with the enquiry's facts.
    const marks = stalePeopleKeys(ctx.config.queuePrefix);
    expect(await PersonModel.findById('ines@example.tn').lean()).toBeNull();
    expect(await ctx.redis.sismember(marks.enquiries, 'ines@example.tn')).toBe(1);
    expect(await ctx.redis.llen(marks.enquiriesOf('ines@example.tn'))).toBe(1);

    expect(await keysOf('?search=ines')).toEqual(['ines@example.tn']);
    expect(await ctx.redis.scard(marks.enquiries)).toBe(0);
    expect(await ctx.redis.exists(marks.enquiriesOf('ines@example.tn'))).toBe(0);
  });

  it('follows an enquiry stored and deleted', async () => {
    const stored = await as(ctx, null).post('/api/contact', {
      firstName: 'Nour',
      lastName: 'Haddad',
      email: 'Nour@Example.tn',
      service: 'web-design',
      message: 'We need a new website for our shop.',
    });
    expect(stored.status).toBe(201);
    expect(await person('nour@example.tn')).toMatchObject({
      sources: ['contact'],
      consent: 'none',
    });
    const [contact] = await ContactModel.find({}).lean();
    const deleted = await as(ctx, users.admin).delete(
      `/api/admin/contacts/${String(contact?._id)}`,
    );
    expect(deleted.status).toBe(204);
    expect(await person('nour@example.tn')).toBeNull();
  });

  it('follows a subscription requested, confirmed and unsubscribed', async () => {
    await requestSubscription(
      { email: 'sami@example.tn', locale: 'en', source: 'newsletter-banner', ip: '203.0.113.9' },
      peopleSubscriberChanges(PEOPLE_REFRESHED_AT_ONCE),
    );
    expect(await person('sami@example.tn')).toMatchObject({
      subscriberStatus: 'pending',
      consent: 'none',
    });
    const subscriber = await SubscriberModel.findOne({ email: 'sami@example.tn' }).lean();
    const token = signConfirmationToken(String(subscriber?._id), ctx.config.mailLinkSecret);
    const confirmed = await as(ctx, null).post('/api/newsletter/confirm', { token });
    expect(confirmed.status).toBe(200);
    expect(await person('sami@example.tn')).toMatchObject({
      subscriberStatus: 'confirmed',
      consent: 'given',
    });
    const left = await as(ctx, null)
      .post(
        `/api/newsletter/unsubscribe?token=${signUnsubscribeToken('sami@example.tn', ctx.config.mailLinkSecret)}`,
      )
      .type('form')
      .send('List-Unsubscribe=One-Click');
    expect(left.status).toBe(200);
    expect(await person('sami@example.tn')).toMatchObject({
      subscriberStatus: 'unsubscribed',
      consent: 'withdrawn',
      suppressed: true,
    });
  });

  it('follows a member added and removed by staff, imported, and a list deleted', async () => {
    const expo = await createList('Expo');
    await manager().post(`/api/admin/lists/${expo}/members`, { email: 'lina@example.tn' });
    expect((await person('lina@example.tn'))?.listIds).toEqual([expo]);
    await manager().delete(`/api/admin/lists/${expo}/members/lina%40example.tn`);
    expect(await person('lina@example.tn')).toBeNull();

    const upload = await ListImportModel.create({
      fileId: new Types.ObjectId(),
      fileName: 'fair.csv',
      size: 100,
      encoding: 'utf-8',
      rowCount: 2,
      list: expo,
      status: 'running',
    });
    const now = new Date();
    const imported = ['one@example.tn', 'two@example.tn'].map((key) => ({
      _id: `${expo}:${key}`,
      key,
      email: key,
      firstName: '',
      lastName: '',
      locale: 'en' as const,
      tags: ['fair'],
      list: new Types.ObjectId(expo),
      importId: upload._id,
      consent: { basis: 'import', at: now, file: 'fair.csv', listName: 'Expo' },
      createdAt: now,
      updatedAt: now,
    }));
    await writeImportedMembers(String(upload._id), imported, [8, 8]);
    // The import's people are refreshed once it ends, not per chunk.
    expect(await PersonModel.countDocuments({ listIds: expo })).toBe(0);
    await refreshPeopleOfImport(new Types.ObjectId(expo), upload.createdAt);
    expect(await PersonModel.countDocuments({ listIds: expo, tags: 'fair' })).toBe(2);

    await removeListMembersChunk(expo, 10);
    expect(await PersonModel.countDocuments()).toBe(0);
  });

  it('follows a suppression added and removed', async () => {
    await storedEnquiry('hana@example.tn', {});
    await refreshPeople(['hana@example.tn']);
    const added = await manager().post('/api/admin/suppressions', { email: 'Hana@example.tn' });
    expect(added.status).toBe(201);
    expect((await person('hana@example.tn'))?.suppressed).toBe(true);
    expect(await keysOf('?suppressed=yes')).toEqual(['hana@example.tn']);
    await manager().delete('/api/admin/suppressions/hana%40example.tn');
    expect((await person('hana@example.tn'))?.suppressed).toBe(false);
  });
});

describe('a refresh that fails', () => {
  it('never fails the write it follows, is logged, and is repaired by the rebuild', async () => {
    const expo = await createList('Expo');
    // A real refusal of the store: a second person in the same language breaks this index.
    await PersonModel.collection.createIndex({ locale: 1 }, { unique: true, name: 'one_locale' });
    try {
      const add = (email: string) => manager().post(`/api/admin/lists/${expo}/members`, { email });
      expect((await add('first@example.tn')).status).toBe(201);
      expect((await add('second@example.tn')).status).toBe(201);
      expect(await ListMemberModel.countDocuments({ list: expo })).toBe(2);
      expect(await person('second@example.tn')).toBeNull();
      expect(logged).toContain('the people view missed a change; the daily rebuild will repair it');
    } finally {
      await PersonModel.collection.dropIndex('one_locale');
    }
    await rebuildPeople();
    expect((await person('second@example.tn'))?.listIds).toEqual([expo]);
  });
});

describe('the rebuild', () => {
  it('repairs a wrong person, adds a missing one and removes an orphan', async () => {
    await storedEnquiry('wrong@example.tn', { consent: true });
    await storedEnquiry('missing@example.tn', {});
    await rebuildPeople();
    await PersonModel.updateOne({ _id: 'wrong@example.tn' }, { $set: { consent: 'none' } });
    await PersonModel.deleteOne({ _id: 'missing@example.tn' });
    await PersonModel.collection.insertOne({
      ...((await person('wrong@example.tn')) as object),
      _id: 'orphan@example.tn',
    } as never);

    const report = await rebuildPeople();

    expect((await person('wrong@example.tn'))?.consent).toBe('given');
    expect(await person('missing@example.tn')).not.toBeNull();
    expect(await person('orphan@example.tn')).toBeNull();
    expect(report).toMatchObject({ removed: 1 });
  });
});
