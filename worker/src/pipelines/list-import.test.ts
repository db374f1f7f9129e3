import mongoose from 'mongoose';
import {
  ListImportModel,
  ListMemberModel,
  PersonModel,
  MailingListModel,
  SubscriberModel,
  SuppressionModel,
} from '@agency/platform/testing/audience-models';
import { importApi, type ImportApi } from '../testing/import-api';
import { createPipelineContext, type PipelineContext } from '../testing/pipeline-context';
import type { RunningWorkers } from '../workers';

let ctx: PipelineContext;
let workers: RunningWorkers;
let api: ImportApi;

beforeAll(async () => {
  ctx = await createPipelineContext();
  workers = await ctx.startWorker({ smtpUrl: 'smtp://127.0.0.1:9' });
  api = await importApi(ctx);
}, 60_000);

afterAll(async () => {
  await workers.close();
  await ctx.close();
});

const UNIQUE = 9200;
const address = (index: number) => `person${index}@import.test`;

/**
 * 10,000 rows: 9,200 distinct addresses (the first 150 unsubscribed from the
 * newsletter, the next 50 suppressed), 500 repeats of earlier addresses in
 * another case, 200 invalid addresses and 100 rows without one.
 */
function guestFile(): string {
  const lines = ['Email,First name,Last name,Language,Tags'];
  for (let index = 0; index < UNIQUE; index += 1) {
    const first = index === 300 ? '"=HYPERLINK(""http://evil.test"",""x"")"' : `Guest${index}`;
    lines.push(`${address(index)},${first},Expo,${index % 3 === 0 ? 'fr' : 'en'},"vip, expo"`);
  }
  for (let index = 1000; index < 1500; index += 1) {
    lines.push(`${address(index).toUpperCase()},Again,Expo,en,`);
  }
  for (let index = 0; index < 200; index += 1) lines.push(`not-an-address-${index},Bad,Row,en,`);
  for (let index = 0; index < 100; index += 1) lines.push(`,No,Address,en,`);
  return `${lines.join('\r\n')}\r\n`;
}

const runImport = (csv: string, listId: string) => api.runImport(csv, listId);

describe('a CSV import into a list', () => {
  let listId: string;

  beforeAll(async () => {
    const list = await api.post('/api/admin/lists', { name: 'Expo guests' });
    listId = list.body.id as string;
    await SubscriberModel.insertMany(
      Array.from({ length: 150 }, (_, index) => ({
        email: address(index),
        status: 'unsubscribed',
      })),
    );
    await SuppressionModel.insertMany(
      Array.from({ length: 50 }, (_, offset) => ({
        _id: address(150 + offset),
        email: address(150 + offset),
        reason: 'hard-bounce',
        source: 'ses',
        at: new Date(),
      })),
    );
  });

  it('counts 10,000 rows exactly and reports each row it did not take, with the reason', async () => {
    const result = await runImport(guestFile(), listId);
    expect(result.status).toBe('done');
    expect(result.counts).toEqual({
      read: 10_000,
      created: 9000,
      updated: 0,
      unchanged: 0,
      skipped: 700,
      invalid: 300,
    });
    expect(result.reportLines).toBe(1000);
    // Its people are refreshed once it has ended, the last step of its job: on
    // the embedded store, 9,000 new people take some seconds more.
    const deadline = Date.now() + 90_000;
    while ((await PersonModel.countDocuments({ listIds: listId })) < 9000) {
      if (Date.now() > deadline) throw new Error('the imported people never appeared');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }

    const report = await api.get(`/api/admin/imports/${result.id}/report`);
    expect(report.status).toBe(200);
    expect(report.headers['content-type']).toMatch(/text\/csv/);
    const lines = report.text
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe('row,value,reason');
    const body = lines.slice(1);
    expect(body).toHaveLength(1000);
    const expected = [
      ...Array.from({ length: 150 }, (_, i) => `${i + 1},${address(i)},unsubscribed`),
      ...Array.from({ length: 50 }, (_, i) => `${i + 151},${address(150 + i)},suppressed`),
      ...Array.from(
        { length: 500 },
        (_, i) => `${UNIQUE + i + 1},${address(1000 + i).toUpperCase()},duplicate-in-file`,
      ),
      ...Array.from(
        { length: 200 },
        (_, i) => `${UNIQUE + 501 + i},not-an-address-${i},invalid-email`,
      ),
      ...Array.from(
        { length: 100 },
        (_, i) => `${UNIQUE + 701 + i},",No,Address,en,",missing-email`,
      ),
    ];
    expect(body).toEqual(expected);

    expect(await ListMemberModel.countDocuments({ list: listId })).toBe(9000);
    expect((await MailingListModel.findById(listId).lean())?.memberCount).toBe(9000);
    const member = await ListMemberModel.findById(`${listId}:${address(300)}`).lean();
    // A formula is kept as the text it is, never evaluated.
    expect(member).toMatchObject({
      email: address(300),
      firstName: '=HYPERLINK("http://evil.test","x")',
      lastName: 'Expo',
      locale: 'fr',
      tags: ['vip', 'expo'],
      consent: { basis: 'import', byName: 'importer', file: 'guests.csv', listName: 'Expo guests' },
    });
    expect(await ListMemberModel.exists({ key: address(10) })).toBeNull();
    expect(await ListMemberModel.exists({ key: address(160) })).toBeNull();
  }, 180_000);

  it('changes nothing when the same file runs again, and says so', async () => {
    const before = await ListMemberModel.findById(`${listId}:${address(42)}`).lean();
    const result = await runImport(guestFile(), listId);
    expect(result.counts).toEqual({
      read: 10_000,
      created: 0,
      updated: 0,
      unchanged: 9000,
      skipped: 700,
      invalid: 300,
    });
    expect(await ListMemberModel.countDocuments({ list: listId })).toBe(9000);
    expect((await MailingListModel.findById(listId).lean())?.memberCount).toBe(9000);
    const after = await ListMemberModel.findById(`${listId}:${address(42)}`).lean();
    expect(after?.updatedAt).toEqual(before?.updatedAt);
    expect(after?.consent).toEqual(before?.consent);
  }, 180_000);

  it('updates the fields a later file changes, and never re-subscribes an address that left', async () => {
    const csv = [
      'email;first name;language',
      `${address(207)};Renamed;ar`,
      `${address(208)};Guest208;en`,
      `${address(20)};Back;en`,
      'fresh@import.test;New;fr',
    ].join('\n');
    const result = await runImport(csv, listId);
    expect(result.counts).toMatchObject({
      read: 4,
      created: 1,
      updated: 1,
      unchanged: 1,
      skipped: 1,
    });
    expect(await ListMemberModel.findById(`${listId}:${address(207)}`).lean()).toMatchObject({
      firstName: 'Renamed',
      locale: 'ar',
      lastName: 'Expo',
    });
    expect(await ListMemberModel.exists({ key: address(20) })).toBeNull();
    expect((await SubscriberModel.findOne({ email: address(20) }).lean())?.status).toBe(
      'unsubscribed',
    );
  }, 60_000);
});

describe('an import with malformed addresses', () => {
  it('refuses each row whose address breaks the address rule and reports it with the reason', async () => {
    const list = await api.post('/api/admin/lists', { name: 'Typed by hand' });
    const listId = list.body.id as string;
    const malformed = [
      '.dot@example.tn',
      'user.@example.tn',
      'jo..hn@example.tn',
      'user@-example.tn',
      'user@example-.tn',
      'user@example',
      'user@[192.0.2.1]',
    ];
    const csv = ['email', 'kept@example.tn', 'idn@مثال.تونس', ...malformed].join('\n');
    const result = await runImport(csv, listId);
    expect(result.counts).toMatchObject({ read: 9, created: 2, invalid: malformed.length });

    const report = await api.get(`/api/admin/imports/${result.id}/report`);
    const lines = report.text
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n')
      .slice(1);
    expect(lines).toEqual(malformed.map((email, i) => `${i + 3},${email},invalid-email`));
    expect(
      (await ListMemberModel.find({ list: listId }, { email: 1 }).lean())
        .map((m) => m.email)
        .sort(),
    ).toEqual(['idn@مثال.تونس', 'kept@example.tn']);
  }, 60_000);
});

describe('cancelling an import', () => {
  it('stops after the chunk being written, keeps and counts what was written, and deletes the file', async () => {
    const list = await api.post('/api/admin/lists', { name: 'Cancelled fair' });
    const listId = list.body.id as string;
    const rows = 60_000;
    const csv = `email\n${Array.from({ length: rows }, (_, i) => `c${i}@cancel.test`).join('\n')}\n`;
    const uploaded = await api.upload(csv, 'big.csv');
    expect(uploaded.status).toBe(201);
    const id = uploaded.body.id as string;
    expect((await api.start(id, listId, { email: 0 })).status).toBe(202);

    // Cancelled once the first chunks are stored.
    const deadline = Date.now() + 60_000;
    while (((await ListImportModel.findById(id).lean())?.checkpointRow ?? 0) < 2000) {
      if (Date.now() > deadline) throw new Error('the import never got going');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const cancel = await api.post(`/api/admin/imports/${id}/cancel`);
    expect(cancel.status).toBe(202);
    const result = await api.waitForEnd(id);

    expect(result.status).toBe('cancelled');
    expect(result.counts.read).toBeLessThan(rows);
    const written = await ListMemberModel.countDocuments({ list: listId });
    expect(result.counts.created).toBe(written);
    expect((await MailingListModel.findById(listId).lean())?.memberCount).toBe(written);
    const stored = await ListImportModel.findById(id, { fileId: 1 }).lean();
    const files = mongoose.connection.db?.collection('imports.files');
    expect(await files?.countDocuments({ _id: stored?.fileId })).toBe(0);
    expect((await api.post(`/api/admin/imports/${id}/cancel`)).status).toBe(409);
  }, 120_000);
});
