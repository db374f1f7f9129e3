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
import {
  ContactModel,
  markContactAcknowledgementSent,
  markContactMailFailed,
  markContactMailSent,
  oweContactMails,
  settleContactMails,
  MailReceiptModel,
  OwedMailModel,
} from '@agency/platform';
import { LeadModel } from '../leads';
import { ActivityLogModel } from '../activity-log';

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
    rows.map(({ mailState: _mailState, mailError: _mailError, ...row }, index) => ({
      ...validEnquiry,
      ...row,
      createdAt: new Date(base + index * 60_000),
    })),
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
  return ids;
}

describe('GET /api/admin/contacts', () => {
  it('lists newest first with the total, filters and searches', async () => {
    const [amira, bilel, chiraz] = await seed();

    const all = await api().get('/api/admin/contacts');
    expect(all.status).toBe(200);
    expect(all.body).toMatchObject({ total: 3, page: 1, pageSize: 20 });
    expect(all.body.items.map((item: { id: string }) => item.id)).toEqual([chiraz, bilel, amira]);
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

    const ids = async (query: string) =>
      (await api().get(`/api/admin/contacts?${query}`)).body.items.map(
        (item: { id: string }) => item.id,
      );
    expect(await ids('service=web-design&sort=createdAt')).toEqual([amira, chiraz]);
    expect(await ids('status=replied')).toEqual([bilel]);
    expect(await ids('mailState=failed')).toEqual([bilel]);
    expect(await ids('search=GHARBI')).toEqual([bilel]);
    expect(await ids('search=shop.tn')).toEqual([chiraz]);
    expect(await ids('pageSize=1&page=2')).toEqual([bilel]);
  });

  it('refuses unknown filter values and a page size over the cap', async () => {
    const response = await api().get('/api/admin/contacts?status=read&pageSize=101&page=0');
    expect(response.status).toBe(400);
    expect(response.body.error.fields).toEqual({
      status: 'Must be one of new, in-progress, replied, archived',
      pageSize: 'Must be at most 100',
      page: 'Must be at least 1',
    });
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
