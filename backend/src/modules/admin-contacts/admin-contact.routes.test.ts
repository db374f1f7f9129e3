import { parse } from 'csv-parse/sync';
import request from 'supertest';
import { createTestContext, type TestContext } from '../../testing/test-context';
import {
  as,
  signedInUser,
  unknownId,
  validEnquiry,
  type SignedInUser,
} from '../../testing/admin-fixtures';
import { reconcileNow } from '../../testing/kept-figures';
import {
  contactMailStatuses,
  markContactAcknowledgementSent,
  markContactMailFailed,
  markContactMailSent,
  oweContactMails,
  settleContactMails,
  withSearchKeys,
} from '@agency/platform';
import { MailReceiptModel, OwedMailModel } from '@agency/platform/testing/outbox-models';
import { ContactAddressModel, ContactModel } from '@agency/platform/testing/contact-models';
import { LeadModel } from '../leads';
import { ActivityLogModel } from '@agency/platform/testing/activity-models';

let ctx: TestContext;
let manager: SignedInUser;
beforeAll(async () => {
  ctx = await createTestContext();
  manager = await signedInUser(ctx, 'manager');
});
afterAll(async () => {
  await ctx.close();
});
beforeEach(async () => {
  await ContactModel.deleteMany({});
  await ctx.redis.del(...(await ctx.redis.keys(`${ctx.config.queuePrefix}:*`)), 'none');
  await LeadModel.deleteMany({});
  await OwedMailModel.deleteMany({});
  await MailReceiptModel.deleteMany({});
});
const api = () => as(ctx, manager);

async function seed() {
  const base = Date.parse('2026-03-01T10:00:00Z');
  const rows: {
    firstName: string;
    lastName: string;
    email: string;
    service: string;
    status: string;
    mailState: 'pending' | 'sent' | 'failed';
    mailError?: string;
  }[] = [
    {
      firstName: 'Amira',
      lastName: 'Ben Salah',
      email: 'amira@example.tn',
      service: 'web-design',
      status: 'new',
      mailState: 'sent',
    },
    {
      firstName: 'Bilel',
      lastName: 'Gharbi',
      email: 'bilel@example.tn',
      service: 'branding',
      status: 'replied',
      mailState: 'failed',
      mailError: '550 mailbox unavailable',
    },
    {
      firstName: 'Chiraz',
      lastName: 'Amri',
      email: 'chiraz@shop.tn',
      service: 'web-design',
      status: 'in-progress',
      mailState: 'pending',
    },
  ];
  const created = await ContactModel.insertMany(
    rows.map(({ mailState: _mailState, mailError: _mailError, ...row }, index) =>
      withSearchKeys({ ...validEnquiry, ...row, createdAt: new Date(base + index * 60_000) }),
    ),
  );
  const ids = created.map((contact) => String(contact._id));
  // Where each notification stands lives in the mail outbox and its receipts, as the worker leaves it.
  for (const [index, { firstName, lastName, email, mailState, mailError }] of rows.entries()) {
    const id = ids[index] ?? '';
    await oweContactMails(id, {
      ...validEnquiry,
      firstName,
      lastName,
      email,
      locale: 'en',
      createdAt: new Date().toISOString(),
    });
    if (mailState === 'sent') await markContactMailSent(id);
    if (mailState === 'failed') await markContactMailFailed(id, mailError ?? '');
    if (mailState !== 'pending') {
      await markContactAcknowledgementSent(id);
      await settleContactMails(id);
    }
  }
  // Written behind the API's back: the reconciliation counts and indexes them.
  await reconcileNow(ctx);
  return ids;
}

type Listed = { items: { id: string }[]; next: string | null; previous: string | null };
const idsOf = (page: Listed) => page.items.map((item) => item.id);

describe('GET /api/admin/contacts', () => {
  it('lists newest first with the kept total, filters and searches', async () => {
    const [amira, bilel, chiraz] = await seed();

    const all = await api().get('/api/admin/contacts');
    expect(all.status).toBe(200);
    expect(all.body).toMatchObject({
      total: 3,
      totalKind: 'exact',
      pageSize: 20,
      next: null,
      previous: null,
    });
    expect(idsOf(all.body)).toEqual([chiraz, bilel, amira]);
    expect(all.body.items[0]).toEqual({
      id: chiraz,
      firstName: 'Chiraz',
      lastName: 'Amri',
      email: 'chiraz@shop.tn',
      phone: validEnquiry.phone,
      service: 'web-design',
      message: validEnquiry.message,
      locale: 'en',
      status: 'in-progress',
      mailState: 'pending',
      acknowledgementState: 'pending',
      createdAt: '2026-03-01T10:02:00.000Z',
    });

    const list = async (query: string) => (await api().get(`/api/admin/contacts?${query}`)).body;
    const ids = async (query: string) => idsOf(await list(query));
    expect(await ids('service=web-design&sort=createdAt')).toEqual([amira, chiraz]);
    expect(await ids('status=replied')).toEqual([bilel]);
    expect(await list('status=replied')).toMatchObject({ total: 1, totalKind: 'exact' });
    expect(await ids('mailState=failed')).toEqual([bilel]);
    expect(await ids('status=new&service=web-design')).toEqual([amira]);
  });

  it('searches the start of a first name, a last name or any word of it, or the e-mail', async () => {
    const [amira, bilel, chiraz] = await seed();
    const [emilie] = (
      await ContactModel.insertMany([
        withSearchKeys({
          ...validEnquiry,
          firstName: 'Émilie',
          lastName: 'Du Pré',
          email: 'EMILIE@Atelier.fr',
        }),
      ])
    ).map((contact) => String(contact._id));
    await reconcileNow(ctx);
    const found = async (search: string, more = '') =>
      idsOf(
        (await api().get(`/api/admin/contacts?search=${encodeURIComponent(search)}${more}`)).body,
      );

    expect(await found('GHARBI')).toEqual([bilel]);
    expect(await found('sal')).toEqual([amira]); // "Ben Salah": any word
    expect(await found('ben s')).toEqual([amira]); // the whole last name
    expect(await found('amira ben')).toEqual([amira]); // the whole name
    expect(await found('chiraz@')).toEqual([chiraz]);
    expect(await found('emi')).toEqual([emilie]); // accents and case ignored
    expect(await found('pre')).toEqual([emilie]);
    expect(await found('émilie@atelier')).toEqual([emilie]);
    // The start only: the middle of a word or of an address is not searched.
    expect(await found('harbi')).toEqual([]);
    expect(await found('iraz@shop')).toEqual([]);
    // Literal text, never a pattern.
    expect(await found('.*')).toEqual([]);
    // Amira, Chiraz Amri, and Émilie of atelier.fr: the start of a domain counts too.
    expect(await found('a', '&sort=createdAt')).toEqual([amira, chiraz, emilie]);
    const counted = (await api().get('/api/admin/contacts?search=a')).body;
    expect(counted).toMatchObject({ total: 3, totalKind: 'exact' });
  });

  it('finds everyone who wrote from a domain, or from any domain under it', async () => {
    const [amira, bilel, chiraz] = await seed();
    const [sales, support] = (
      await ContactModel.insertMany([
        withSearchKeys({ ...validEnquiry, firstName: 'Sami', email: 'sales@eu.acme.tn' }),
        // Stored before domains were keys: the reconciliation gives it them.
        {
          ...withSearchKeys({ ...validEnquiry, firstName: 'Sonia', email: 'Support@ACME.tn' }),
          searchTerms: ['sonia', 'support@acme.tn'],
        },
      ])
    ).map((contact) => String(contact._id));
    await reconcileNow(ctx);
    const rekeyed = await ContactModel.findById(support).lean();
    expect(rekeyed?.searchTerms).toEqual(expect.arrayContaining(['acme.tn', 'support@acme.tn']));
    const found = async (search: string) =>
      idsOf(
        (await api().get(`/api/admin/contacts?search=${encodeURIComponent(search)}`)).body,
      ).sort();

    expect(await found('acme.tn')).toEqual([sales, support].sort());
    expect(await found('@ACME.TN')).toEqual([sales, support].sort());
    expect(await found('eu.acme.tn')).toEqual([sales]);
    expect(await found('example.tn')).toEqual([amira, bilel].sort());
    expect(await found('shop.tn')).toEqual([chiraz]);
    expect(await found('acme')).toEqual([sales, support].sort()); // the start of a domain too
    // A top-level domain alone is no company's domain.
    expect(await found('tn')).toEqual([]);
  });

  it('pages forwards and back by position, in every order the table offers', async () => {
    const base = Date.parse('2026-04-01T08:00:00Z');
    const names = ['Zied', 'amal', 'Yosra', 'bassem', 'Walid', 'Chedly', 'Rim'];
    const statuses = ['new', 'replied', 'archived', 'new', 'in-progress', 'replied', 'new'];
    await ContactModel.insertMany(
      names.map((name, index) =>
        withSearchKeys({
          ...validEnquiry,
          firstName: name,
          lastName: name,
          email: `${name.toLowerCase()}@example.tn`,
          status: statuses[index],
          // Two arrive in the same millisecond: the id orders them.
          createdAt: new Date(base + Math.min(index, 5) * 60_000),
        }),
      ),
    );
    await reconcileNow(ctx);
    const stored = await ContactModel.find({}).lean();
    const byKey = (
      key: (contact: (typeof stored)[number]) => string | number,
      descending: boolean,
    ) =>
      [...stored]
        .sort((a, b) => {
          const [x, y] = [key(a), key(b)];
          const order = x < y ? -1 : x > y ? 1 : String(a._id) < String(b._id) ? -1 : 1;
          return descending ? -order : order;
        })
        .map((contact) => String(contact._id));

    const orders: [string, string[]][] = [
      ['-createdAt', byKey((c) => c.createdAt.getTime(), true)],
      ['createdAt', byKey((c) => c.createdAt.getTime(), false)],
      ['lastName', byKey((c) => c.lastName.toLowerCase(), false)],
      ['-lastName', byKey((c) => c.lastName.toLowerCase(), true)],
      ['email', byKey((c) => c.email, false)],
      ['-status', byKey((c) => c.status, true)],
    ];
    for (const [sort, expected] of orders) {
      const forward: string[] = [];
      const pages: Listed[] = [];
      let page: Listed = (await api().get(`/api/admin/contacts?sort=${sort}&pageSize=3`)).body;
      pages.push(page);
      forward.push(...idsOf(page));
      while (page.next) {
        const next = encodeURIComponent(page.next);
        page = (await api().get(`/api/admin/contacts?sort=${sort}&pageSize=3&after=${next}`)).body;
        pages.push(page);
        forward.push(...idsOf(page));
      }
      expect({ sort, ids: forward }).toEqual({ sort, ids: expected });
      expect(pages.map((each) => each.items.length)).toEqual([3, 3, 1]);
      expect(pages[0]?.previous).toBeNull();

      // Back from the last page, through `previous`, to the first page.
      const backward: string[][] = [];
      while (page.previous) {
        const before = encodeURIComponent(page.previous);
        page = (await api().get(`/api/admin/contacts?sort=${sort}&pageSize=3&before=${before}`))
          .body;
        backward.unshift(idsOf(page));
      }
      expect({ sort, pages: backward }).toEqual({
        sort,
        pages: pages.slice(0, -1).map(idsOf),
      });
      expect(page.previous).toBeNull();
    }
  });

  it('answers the same pages from the store as from its index on the embedded store', async () => {
    await seed();
    const first = await api().get('/api/admin/contacts?pageSize=2');
    // Without the index (as on MongoDB), the store answers: the same rows and positions.
    const built = `${ctx.config.queuePrefix}:contacts:index:built`;
    await ctx.redis.del(built);
    const fromStore = await api().get('/api/admin/contacts?pageSize=2');
    expect(fromStore.body).toEqual(first.body);
    const second = await api().get(
      `/api/admin/contacts?pageSize=2&after=${encodeURIComponent(first.body.next as string)}`,
    );
    expect(idsOf(second.body)).toHaveLength(1);
  });

  it('takes the default order from its index once built, which the reconciliation repairs', async () => {
    await seed();
    const [unindexed] = await ContactModel.insertMany([
      withSearchKeys({ ...validEnquiry, firstName: 'Unindexed', createdAt: new Date() }),
    ]);
    const newest = async () => idsOf((await api().get('/api/admin/contacts?pageSize=1')).body)[0];
    const searched = async () =>
      idsOf((await api().get('/api/admin/contacts?search=unindexed')).body);

    // Written behind the API's back: the index does not know it yet, the store does.
    expect(await newest()).not.toBe(String(unindexed?._id));
    expect(await searched()).toEqual([]);
    const report = await reconcileNow(ctx);
    expect(report.index?.added).toBeGreaterThan(0);
    expect(await newest()).toBe(String(unindexed?._id));
    expect(await searched()).toEqual([String(unindexed?._id)]);
  });

  it('says "1000+" rather than count every match of a search', async () => {
    await ContactModel.insertMany(
      Array.from({ length: 1001 }, (_, index) =>
        withSearchKeys({ ...validEnquiry, firstName: 'Zohra', email: `z${index}@example.tn` }),
      ),
    );
    const fromStore = (await api().get('/api/admin/contacts?search=zohra')).body;
    expect(fromStore).toMatchObject({ total: 1000, totalKind: 'atLeast' });
    expect(fromStore.items).toHaveLength(20);
    expect(fromStore.next).toEqual(expect.any(String));
  });

  it('refuses unknown filter values, a page size over the cap and positions not of this list', async () => {
    const response = await api().get('/api/admin/contacts?status=read&pageSize=101');
    expect(response.status).toBe(400);
    expect(response.body.error.fields).toEqual({
      status: 'Must be one of new, in-progress, replied, archived',
      pageSize: 'Must be at most 100',
    });

    const [amira] = await seed();
    const page = (await api().get('/api/admin/contacts?pageSize=1')).body as Listed;
    const cursor = encodeURIComponent(page.next ?? '');
    const refusals: [string, string][] = [
      [`after=${cursor}&sort=email`, 'after'], // a position in another order
      [`after=not-a-position`, 'after'],
      [`before=${Buffer.from('[1,2,3]').toString('base64url')}`, 'before'],
      [
        `before=${Buffer.from(JSON.stringify(['-createdAt', 'x', amira])).toString('base64url')}`,
        'before',
      ],
      [
        `after=${Buffer.from(JSON.stringify(['-createdAt', { $gt: 0 }, amira])).toString('base64url')}`,
        'after',
      ],
      [`after=${cursor}&before=${cursor}`, 'before'],
      [`after=${'x'.repeat(401)}`, 'after'],
      // Times no Date holds (past year 275760), and years no enquiry was made in.
      ...[1e16, -9e15, Date.UTC(2101, 0, 1), Date.UTC(1999, 11, 31)].map(
        (time): [string, string] => [
          `after=${Buffer.from(JSON.stringify(['-createdAt', time, amira])).toString('base64url')}`,
          'after',
        ],
      ),
    ];
    for (const [query, field] of refusals) {
      const refused = await api().get(`/api/admin/contacts?${query}`);
      expect({ query, status: refused.status }).toEqual({ query, status: 400 });
      expect(Object.keys(refused.body.error.fields as object)).toEqual([field]);
    }
  });
});

describe('DELETE /api/admin/contacts/{id}', () => {
  it('deletes the enquiry with what it owed and its receipts, and counts it out', async () => {
    const [amira, bilel, chiraz] = await seed();
    const editor = as(ctx, await signedInUser(ctx, 'editor'));
    // seed() reconciles, which gave the enquiries stored without the API their addresses.
    expect(await ContactAddressModel.exists({ _id: amira })).not.toBeNull();
    expect(await ContactAddressModel.exists({ _id: bilel })).not.toBeNull();

    expect(
      (await as(ctx, await signedInUser(ctx, 'viewer')).delete(`/api/admin/contacts/${bilel}`))
        .status,
    ).toBe(403);
    expect((await editor.delete(`/api/admin/contacts/${bilel}`)).status).toBe(204);
    expect((await editor.delete(`/api/admin/contacts/${chiraz}`)).status).toBe(204);

    expect(await ContactModel.exists({ _id: bilel })).toBeNull();
    // No campaign mails a deleted enquiry: its address went with it.
    expect(await ContactAddressModel.exists({ _id: bilel })).toBeNull();
    expect(await ContactAddressModel.exists({ _id: amira })).not.toBeNull();
    expect(await MailReceiptModel.countDocuments({ ref: bilel })).toBe(0);
    expect(await OwedMailModel.countDocuments({ contactId: chiraz })).toBe(0);
    expect(await contactMailStatuses(amira ?? '')).toMatchObject({
      notification: { state: 'sent' },
    });
    const list = (await api().get('/api/admin/contacts')).body;
    expect(idsOf(list)).toEqual([amira]);
    expect(list.total).toBe(1);
    expect((await api().get('/api/admin/stats')).body.totalContacts).toBe(1);
    expect(
      await ActivityLogModel.exists({ action: 'contact.delete', 'target.id': bilel }),
    ).not.toBeNull();

    expect((await editor.delete(`/api/admin/contacts/${bilel}`)).status).toBe(404);
    expect((await editor.delete('/api/admin/contacts/zzz')).status).toBe(400);
  });
});

describe('one contact', () => {
  it('answers its notification mail state, 400 for a malformed id, 404 for an unknown one', async () => {
    const [, bilel] = await seed();
    const response = await api().get(`/api/admin/contacts/${bilel}`);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      id: bilel,
      mailState: 'failed',
      mailError: '550 mailbox unavailable',
      mailSentAt: null,
      updatedAt: expect.any(String),
    });
    expect((await api().get('/api/admin/contacts/zzz')).status).toBe(400);
    expect((await api().get(`/api/admin/contacts/${unknownId()}`)).status).toBe(404);
  });

  it('changes the status and nothing else', async () => {
    const [amira] = await seed();
    const response = await api().patch(`/api/admin/contacts/${amira}`, {
      status: 'in-progress',
      email: 'hijack@evil.test',
      mailState: 'pending',
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      status: 'in-progress',
      email: 'amira@example.tn',
      mailState: 'sent',
    });
    const logged = await ActivityLogModel.findOne({ action: 'contact.status', 'target.id': amira })
      .sort({ time: -1 })
      .lean();
    expect(logged?.changes).toEqual([{ field: 'status', before: 'new', after: 'in-progress' }]);

    const invalid = await api().patch(`/api/admin/contacts/${amira}`, { status: 'read' });
    expect(invalid.status).toBe(400);
    expect(invalid.body.error.fields).toEqual({
      status: 'Must be one of new, in-progress, replied, archived',
    });
    expect(
      (await api().patch(`/api/admin/contacts/${unknownId()}`, { status: 'archived' })).status,
    ).toBe(404);
  });

  it('converts an enquiry into a lead that keeps the link, once', async () => {
    const [amira] = await seed();
    const response = await api().post(`/api/admin/contacts/${amira}/convert`);
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({
      name: 'Amira Ben Salah',
      email: 'amira@example.tn',
      phone: validEnquiry.phone,
      source: 'enquiry',
      status: 'new',
      notes: validEnquiry.message,
      contactId: amira,
      assignee: null,
    });
    const again = await api().post(`/api/admin/contacts/${amira}/convert`);
    expect(again.status).toBe(409);
    expect(await LeadModel.countDocuments({ contactId: amira })).toBe(1);
    expect((await api().post(`/api/admin/contacts/${unknownId()}/convert`)).status).toBe(404);
  });
});

describe('GET /api/admin/contacts/export', () => {
  const exportCsv = (query = '') =>
    request(ctx.app.callback())
      .get(`/api/admin/contacts/export${query}`)
      .set('Authorization', `Bearer ${manager.token}`)
      .buffer(true)
      .parse((response, done) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => done(null, Buffer.concat(chunks)));
        response.on('error', (error: Error) => done(error, null));
        response.on('aborted', () => done(new Error('export aborted'), null));
      });

  it('streams UTF-8 CSV with a BOM, every column, the list filters, and neutralised formulas', async () => {
    await seed();
    await ContactModel.create({
      ...validEnquiry,
      firstName: '=HYPERLINK("http://evil.test","click")',
      lastName: '+1+1',
      phone: '-2+3',
      message: '@SUM(A1:A9) and "quotes", commas\nand a new line',
      email: 'formula@example.tn',
      service: 'analytics',
    });
    await ContactModel.create({
      ...validEnquiry,
      firstName: 'عائشة',
      lastName: '\tTabbed',
      email: 'aicha@example.tn',
      service: 'analytics',
    });
    // Written behind the API's back: counted and indexed as the scheduled pass would.
    await reconcileNow(ctx);

    const response = await exportCsv('?service=analytics&sort=createdAt');
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toMatch(
      /^attachment; filename="contacts-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    const body = response.body as Buffer;
    expect([...body.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);

    const rows = parse(body.toString('utf8'), { bom: true, columns: true }) as Record<
      string,
      string
    >[];
    expect(Object.keys(rows[0] ?? {})).toEqual([
      'id',
      'createdAt',
      'firstName',
      'lastName',
      'email',
      'phone',
      'service',
      'status',
      'mailState',
      'locale',
      'message',
    ]);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({
      firstName: `'=HYPERLINK("http://evil.test","click")`,
      lastName: "'+1+1",
      phone: "'-2+3",
      message: `'@SUM(A1:A9) and "quotes", commas\nand a new line`,
      service: 'analytics',
      status: 'new',
    });
    expect(rows[1]).toMatchObject({ firstName: 'عائشة', lastName: "'\tTabbed" });
    expect(rows[0]?.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T/);
  });

  it('sends the header of an export before any row, and alone when nothing matches', async () => {
    const response = await exportCsv('?search=nobody-matches-this');
    expect(response.status).toBe(200);
    expect((response.body as Buffer).toString('utf8')).toBe(
      '\ufeffid,createdAt,firstName,lastName,email,phone,service,status,mailState,locale,message\n',
    );
  });

  it('exports 10,000 contacts, every one, in order', async () => {
    const total = 10_000;
    const start = Date.parse('2025-01-01T00:00:00Z');
    for (let offset = 0; offset < total; offset += 2500) {
      await ContactModel.insertMany(
        Array.from({ length: 2500 }, (_, index) => ({
          ...validEnquiry,
          email: `visitor${offset + index}@example.tn`,
          createdAt: new Date(start + (offset + index) * 1000),
        })),
      );
    }

    const response = await exportCsv('?sort=createdAt');
    expect(response.status).toBe(200);
    const rows = parse((response.body as Buffer).toString('utf8'), {
      bom: true,
      columns: true,
    }) as Record<string, string>[];
    expect(rows).toHaveLength(total);
    expect(rows[0]?.email).toBe('visitor0@example.tn');
    expect(rows[total - 1]?.email).toBe(`visitor${total - 1}@example.tn`);
    expect(new Set(rows.map((row) => row.id)).size).toBe(total);
  }, 120_000);
});
