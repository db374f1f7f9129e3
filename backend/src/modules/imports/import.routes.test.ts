import { once } from 'node:events';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import mongoose from 'mongoose';
import { IMPORT_MAX_ROWS } from '@agency/contracts';
import { ListImportModel } from '@agency/platform/testing/audience-models';
import { createTestContext, type TestContext } from '../../testing/test-context';
import { as, oneUserPerRole, unknownId, type SignedInUser } from '../../testing/admin-fixtures';
import type { Role } from '@agency/contracts';

let ctx: TestContext;
let users: Record<Role, SignedInUser>;
let listId: string;

beforeAll(async () => {
  ctx = await createTestContext();
  users = await oneUserPerRole(ctx);
  const list = await as(ctx, users.manager).post('/api/admin/lists', { name: 'Guests' });
  listId = list.body.id as string;
});
afterAll(async () => {
  await ctx.close();
});

function upload(
  file: Buffer | string,
  user: SignedInUser | null = users.manager,
  type = 'text/csv',
) {
  const call = as(ctx, user)
    .post('/api/admin/imports')
    .set('Content-Type', type)
    .set('X-File-Name', encodeURIComponent('guests é.csv'));
  return call.send(Buffer.isBuffer(file) ? file : Buffer.from(file));
}

/** Files and imports stored: a refused upload leaves both as they were. */
async function stored(): Promise<{ files: number; imports: number }> {
  const db = mongoose.connection.db;
  if (!db) throw new Error('not connected');
  return {
    files: await db.collection('imports.files').countDocuments(),
    imports: await ListImportModel.countDocuments(),
  };
}

async function expectRefused(
  response: { status: number; body: { error?: { message: string; fields?: object } } },
  status: number,
  reason: RegExp,
  before: { files: number; imports: number },
) {
  expect(response.status).toBe(status);
  expect(response.body.error?.message).toMatch(reason);
  expect(await stored()).toEqual(before);
}

const GOOD =
  'Email,First name,Language\r\nada@example.com,Ada,fr\r\ngrace@example.com,Grace,en\r\n';

describe('uploading a CSV file', () => {
  it('takes UTF-8 with a BOM, names its columns, suggests the mapping and previews the rows', async () => {
    const response = await upload(
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(GOOD)]),
    );
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({
      fileName: 'guests é.csv',
      encoding: 'utf-8',
      rowCount: 2,
      columns: ['Email', 'First name', 'Language'],
      preview: [
        ['ada@example.com', 'Ada', 'fr'],
        ['grace@example.com', 'Grace', 'en'],
      ],
      suggestedMapping: { email: 0, firstName: 1, locale: 2 },
      status: 'uploaded',
      hasHeader: true,
    });
  });

  it('reads Windows-1252 as such, and a file without a header by its values', async () => {
    const latin = Buffer.from('zoe@example.com;Zo\xe9\r\n', 'latin1');
    const response = await upload(latin);
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({
      encoding: 'windows-1252',
      hasHeader: false,
      rowCount: 1,
      preview: [['zoe@example.com', 'Zoé']],
      suggestedMapping: { email: 0 },
    });
  });

  it('refuses other encodings, binary files, broken CSV and files without addresses, storing nothing', async () => {
    const before = await stored();
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(GOOD, 'utf16le')]);
    await expectRefused(await upload(utf16), 400, /UTF-16/, before);
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]);
    await expectRefused(await upload(png), 400, /not a CSV file/, before);
    // 0x81 is undefined in Windows-1252 and not valid UTF-8 here.
    await expectRefused(
      await upload(Buffer.from([0x61, 0x81, 0x0a])),
      400,
      /neither UTF-8/,
      before,
    );
    const broken = await upload('Email,Name\r\nada@example.com,"Ada\r\n');
    await expectRefused(broken, 400, /not a valid CSV file/, before);
    expect(broken.body.error.fields.file).toMatch(/quote/i);
    await expectRefused(
      await upload('Name,Company\r\nAda,Analytical\r\n'),
      400,
      /No column holds e-mail addresses/,
      before,
    );
    await expectRefused(await upload(''), 400, /empty/, before);
    await expectRefused(
      await upload('{"a":1}', users.manager, 'application/json'),
      415,
      /text\/csv/,
      before,
    );
  });

  it('answers 413 to a file over 100 MB and to more than 1,000,000 rows, storing nothing', async () => {
    const before = await stored();
    const huge = Buffer.alloc(110 * 1024 * 1024, 'a');
    await expectRefused(await upload(huge), 413, /100 MB/, before);
    const rows = `email\n${'a@example.com\n'.repeat(IMPORT_MAX_ROWS + 1)}`;
    await expectRefused(await upload(rows), 413, /1,000,000 rows/, before);
  }, 120_000);

  it('stops reading a file sent without its length once it passes 100 MB: 413, nothing stored', async () => {
    const before = await stored();
    const server = ctx.app.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { port } = server.address() as AddressInfo;
    try {
      const status = await new Promise<number>((resolve, reject) => {
        const upload = httpRequest({
          host: '127.0.0.1',
          port,
          method: 'POST',
          path: '/api/admin/imports',
          headers: {
            Authorization: `Bearer ${users.manager.token}`,
            'Content-Type': 'text/csv',
            'Transfer-Encoding': 'chunked',
          },
        });
        let answered = false;
        upload.on('response', (response) => {
          answered = true;
          response.resume();
          resolve(response.statusCode ?? 0);
        });
        // Once the server has answered it may close the connection mid-body.
        upload.on('error', (error) => (answered ? undefined : reject(error)));
        const megabyte = Buffer.alloc(1024 * 1024, 'a');
        let sent = 0;
        const next = () => {
          while (!answered && sent < 110) {
            sent += 1;
            if (!upload.write(megabyte)) {
              upload.once('drain', next);
              return;
            }
          }
          if (!answered) upload.end();
        };
        next();
      });
      expect(status).toBe(413);
      expect(await stored()).toEqual(before);
    } finally {
      server.close();
    }
  }, 60_000);

  it('is for managers and admins: 401 without a session, 403 for editors and viewers', async () => {
    const before = await stored();
    expect((await upload(GOOD, null)).status).toBe(401);
    expect((await upload(GOOD, users.editor)).status).toBe(403);
    expect((await upload(GOOD, users.viewer)).status).toBe(403);
    expect(await stored()).toEqual(before);
    expect((await upload(GOOD, users.admin)).status).toBe(201);
  });
});

describe('starting and cancelling an import', () => {
  it('checks the list and the mapping, refuses injection-shaped values, and starts once', async () => {
    const { body: file } = await upload(GOOD);
    const start = (body: object) =>
      as(ctx, users.manager).post(`/api/admin/imports/${file.id}/start`, body);

    const outside = await start({ listId, mapping: { email: 7 } });
    expect(outside.status).toBe(400);
    expect(outside.body.error.fields['mapping.email']).toMatch(/3 columns/);
    const noList = await start({ listId: unknownId(), mapping: { email: 0 } });
    expect(noList.status).toBe(400);
    expect(noList.body.error.fields.listId).toMatch(/does not exist/);
    const injected = await start({ listId: { $gt: '' }, mapping: { email: { $gt: 0 } } });
    expect(injected.status).toBe(400);
    expect(Object.keys(injected.body.error.fields)).toEqual(
      expect.arrayContaining(['listId', 'mapping.email']),
    );
    expect((await ListImportModel.findById(file.id).lean())?.status).toBe('uploaded');

    const started = await start({ listId, mapping: { email: 0, firstName: 1 } });
    expect(started.status).toBe(202);
    expect(started.body).toMatchObject({
      status: 'queued',
      list: { id: listId, name: 'Guests' },
      mapping: { email: 0, firstName: 1 },
    });
    const again = await start({ listId, mapping: { email: 0 } });
    expect(again.status).toBe(409);
  });

  it('refuses a list being deleted, leaving the upload as it was', async () => {
    const { body: file } = await upload(GOOD);
    const { body: going } = await as(ctx, users.manager).post('/api/admin/lists', {
      name: 'Going',
    });
    expect((await as(ctx, users.manager).delete(`/api/admin/lists/${going.id}`)).status).toBe(202);
    const refused = await as(ctx, users.manager).post(`/api/admin/imports/${file.id}/start`, {
      listId: going.id,
      mapping: { email: 0 },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error.fields.listId).toBe('This list is being deleted');
    expect((await ListImportModel.findById(file.id).lean())?.status).toBe('uploaded');
  });

  it('cancels an upload not started, deleting its file', async () => {
    const { body: file } = await upload(GOOD);
    const before = await stored();
    const cancelled = await as(ctx, users.manager).post(`/api/admin/imports/${file.id}/cancel`);
    expect(cancelled.status).toBe(202);
    expect(cancelled.body.status).toBe('cancelled');
    expect(await stored()).toEqual({ files: before.files - 1, imports: before.imports });
    const late = await as(ctx, users.manager).post(`/api/admin/imports/${file.id}/start`, {
      listId,
      mapping: { email: 0 },
    });
    expect(late.status).toBe(409);
  });

  it('lets viewers follow imports but not start or cancel them', async () => {
    const { body: file } = await upload(GOOD);
    const viewer = as(ctx, users.viewer);
    expect((await viewer.get(`/api/admin/imports/${file.id}`)).status).toBe(200);
    expect((await viewer.get('/api/admin/imports')).body.items.length).toBeGreaterThan(0);
    expect((await viewer.post(`/api/admin/imports/${file.id}/cancel`)).status).toBe(403);
    expect(
      (await viewer.post(`/api/admin/imports/${file.id}/start`, { listId, mapping: { email: 0 } }))
        .status,
    ).toBe(403);
  });
});
