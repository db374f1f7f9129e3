import { mkdtempSync, rmSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { once } from 'node:events';
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import sharp from 'sharp';
import request from 'supertest';
import { MEDIA_MAIL_WIDTH, MEDIA_THUMBNAIL_WIDTH, type MediaDto } from '@agency/contracts';
import { buildWorkspaces } from '@agency/platform/testing/build-workspaces';
import { CampaignModel } from '@agency/platform/testing/campaigns-models';
import { createTestContext, type TestContext } from '../../testing/test-context';
import { as, signedInUser, validCampaign, type SignedInUser } from '../../testing/admin-fixtures';

const PATH = '/api/admin/media';

// Uploads are processed by the built image process (media-image.process.ts).
beforeAll(() => buildWorkspaces('backend'), 120_000);

/* Test images, made here with sharp. */

const solid = (width: number, height: number, background: string, channels: 3 | 4 = 3) =>
  sharp({ create: { width, height, channels, background } });

/** A photo taken sideways (EXIF orientation 6) that carries its owner and where it was taken. */
const sidewaysPhotoWithGps = () =>
  solid(400, 200, '#c0392b')
    .jpeg()
    .withExif({
      IFD0: { Copyright: 'owner-secret-name' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '36/1 48/1 0/1' },
    })
    .withMetadata({ orientation: 6 })
    .toBuffer();

const animatedGif = async () => {
  const frames = await Promise.all(
    ['red', 'green', 'blue'].map((colour) => solid(60, 40, colour).png().toBuffer()),
  );
  return sharp(frames, { join: { animated: true } })
    .gif()
    .toBuffer();
};

const SVG = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>',
);

/* The two stores every upload test runs against. */

interface StoreCase {
  name: string;
  env: () => Promise<Record<string, string>>;
  cleanUp: () => void;
}

const folders: string[] = [];
const filesystemCase: StoreCase = {
  name: 'filesystem',
  env: async () => {
    const dir = mkdtempSync(join(tmpdir(), 'media-test-'));
    folders.push(dir);
    return { MEDIA_DIR: dir };
  },
  cleanUp: () => folders.forEach((dir) => rmSync(dir, { recursive: true, force: true })),
};

const s3Case: StoreCase = {
  name: 'S3-compatible (Versity S3 Gateway)',
  env: async () => {
    const endpoint = process.env.MEDIA_TEST_S3_ENDPOINT;
    if (!endpoint) throw new Error('MEDIA_TEST_S3_ENDPOINT must be set (the jest setup starts it)');
    const credentials = {
      accessKeyId: process.env.MEDIA_TEST_S3_ACCESS_KEY_ID ?? '',
      secretAccessKey: process.env.MEDIA_TEST_S3_SECRET_ACCESS_KEY ?? '',
    };
    // One bucket per test file, as one database and one queue prefix.
    const bucket = `media-test-${process.pid}-${Date.now().toString(36)}`;
    const client = new S3Client({
      region: 'us-east-1',
      endpoint,
      credentials,
      forcePathStyle: true,
    });
    await client.send(new CreateBucketCommand({ Bucket: bucket }));
    client.destroy();
    return {
      MEDIA_S3_BUCKET: bucket,
      MEDIA_S3_ENDPOINT: endpoint,
      MEDIA_S3_ACCESS_KEY_ID: credentials.accessKeyId,
      MEDIA_S3_SECRET_ACCESS_KEY: credentials.secretAccessKey,
      MEDIA_S3_FORCE_PATH_STYLE: 'true',
    };
  },
  cleanUp: () => undefined,
};

describe.each([filesystemCase, s3Case])('the media library on $name storage', (store) => {
  let ctx: TestContext;
  let manager: SignedInUser;
  let mediaDir: string | undefined;

  beforeAll(async () => {
    const env = await store.env();
    mediaDir = env.MEDIA_DIR;
    ctx = await createTestContext({ env: { ...env, SITE_URL: 'https://agency.example/' } });
    manager = await signedInUser(ctx, 'manager');
  });
  afterAll(async () => {
    await ctx.close();
    store.cleanUp();
  });

  const upload = (bytes: Buffer, contentType: string, fileName = 'image.bin', name?: string) => {
    const call = request(ctx.app.callback())
      .post(PATH)
      .set('Authorization', `Bearer ${manager.token}`)
      .attach('file', bytes, { filename: fileName, contentType });
    return name ? call.field('name', name) : call;
  };
  /** The served file behind an absolute URL, fetched through the API. */
  const fetchFile = (url: string) =>
    request(ctx.app.callback())
      .get(new URL(url).pathname)
      .buffer(true)
      .parse((response, done) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => done(null, Buffer.concat(chunks)));
      });

  it('applies the orientation and strips EXIF and GPS, with absolute URLs from SITE_URL', async () => {
    const response = await upload(await sidewaysPhotoWithGps(), 'image/jpeg', 'Beach day.jpg');
    expect(response.status).toBe(201);
    const item = response.body.item as MediaDto;
    expect(response.body.duplicate).toBe(false);
    expect(item).toMatchObject({
      name: 'Beach day',
      contentType: 'image/jpeg',
      originalWidth: 200,
      originalHeight: 400,
      width: 200,
      height: 400,
      createdBy: { id: manager.id, username: manager.username },
      usedBy: [],
    });
    expect(item.id).toMatch(/^[a-f0-9]{64}$/);
    expect(item.url).toBe(`https://agency.example/api/media/${item.id}.jpg`);
    expect(item.thumbnailUrl).toBe(`https://agency.example/api/media/${item.id}-thumb.jpg`);

    const served = await fetchFile(item.url);
    expect(served.status).toBe(200);
    const bytes = served.body as Buffer;
    const metadata = await sharp(bytes).metadata();
    expect(metadata).toMatchObject({ format: 'jpeg', width: 200, height: 400 });
    expect(metadata.exif).toBeUndefined();
    expect(metadata.orientation).toBeUndefined();
    expect(bytes.toString('latin1')).not.toContain('owner-secret-name');
  });

  it('serves a file with its type, nosniff, a sandbox, a year of caching and an ETag', async () => {
    const { body } = await upload(await solid(50, 50, '#123456').png().toBuffer(), 'image/png');
    const path = new URL((body.item as MediaDto).url).pathname;
    const served = await request(ctx.app.callback()).get(path);
    expect(served.status).toBe(200);
    expect(served.headers).toMatchObject({
      'content-type': 'image/png',
      'x-content-type-options': 'nosniff',
      'cache-control': 'public, max-age=31536000, immutable',
      'content-security-policy': "default-src 'none'; sandbox",
    });
    const etag = served.headers.etag;
    expect(etag).toBeTruthy();
    const head = await request(ctx.app.callback()).head(path);
    expect(head.status).toBe(200);
    expect(Number(head.headers['content-length'])).toBe(Number(served.headers['content-length']));
    const again = await request(ctx.app.callback())
      .get(path)
      .set('If-None-Match', etag ?? '');
    expect(again.status).toBe(304);
    expect(again.headers).toMatchObject({ etag, 'x-content-type-options': 'nosniff' });
    const anyCopy = await request(ctx.app.callback()).get(path).set('If-None-Match', '*');
    expect(anyCopy.status).toBe(304);

    const id = (body.item as MediaDto).id;
    for (const wrong of [`${id}.html`, `${id}.svg`, `${id.slice(1)}.png`, `${id}-thumb.png.html`]) {
      const answer = await request(ctx.app.callback()).get(`/api/media/${wrong}`);
      expect({ wrong, status: answer.status }).toEqual({ wrong, status: 404 });
      expect(answer.headers['content-type']).not.toContain('html');
    }
    const missing = await request(ctx.app.callback()).get(`/api/media/${'0'.repeat(64)}.png`);
    expect(missing.status).toBe(404);
  });

  it('answers a revalidation of a deleted image with 404, not 304', async () => {
    const { body } = await upload(await solid(40, 40, '#654321').png().toBuffer(), 'image/png');
    const item = body.item as MediaDto;
    const path = new URL(item.url).pathname;
    const etag = (await request(ctx.app.callback()).get(path)).headers.etag ?? '';
    expect((await as(ctx, manager).delete(`${PATH}/${item.id}`)).status).toBe(204);
    const again = await request(ctx.app.callback()).get(path).set('If-None-Match', etag);
    expect(again.status).toBe(404);
    const other = await request(ctx.app.callback())
      .get(path)
      .set('If-None-Match', '"another-file.png"');
    expect(other.status).toBe(404);
  });

  it('makes a mail variant at most 1200 px wide and a thumbnail, never enlarging', async () => {
    const wide = await upload(await solid(3000, 1000, '#2d6a4f').jpeg().toBuffer(), 'image/jpeg');
    expect(wide.status).toBe(201);
    const item = wide.body.item as MediaDto;
    expect(item).toMatchObject({ width: MEDIA_MAIL_WIDTH, height: 400, originalWidth: 3000 });
    const thumbnail = await sharp((await fetchFile(item.thumbnailUrl)).body as Buffer).metadata();
    expect(thumbnail.width).toBe(MEDIA_THUMBNAIL_WIDTH);
    const mail = await sharp((await fetchFile(item.url)).body as Buffer).metadata();
    expect(mail.width).toBe(MEDIA_MAIL_WIDTH);

    const small = await upload(await solid(100, 80, '#40916c').jpeg().toBuffer(), 'image/jpeg');
    expect(small.body.item).toMatchObject({ width: 100, height: 80 });
  });

  it('delivers WebP as JPEG when opaque and as PNG with transparency', async () => {
    const opaque = await upload(await solid(80, 60, '#ff8800').webp().toBuffer(), 'image/webp');
    expect(opaque.status).toBe(201);
    expect(opaque.body.item.contentType).toBe('image/jpeg');
    expect(opaque.body.item.url).toMatch(/\.jpg$/);
    const clear = { r: 0, g: 0, b: 0, alpha: 0 } as unknown as string;
    const withAlpha = await upload(await solid(80, 60, clear, 4).webp().toBuffer(), 'image/webp');
    expect(withAlpha.status).toBe(201);
    expect(withAlpha.body.item.contentType).toBe('image/png');
    const served = await fetchFile(withAlpha.body.item.url);
    expect(served.headers['content-type']).toBe('image/png');
    expect((await sharp(served.body as Buffer).metadata()).hasAlpha).toBe(true);
  });

  it('keeps every frame of an animated GIF', async () => {
    const response = await upload(await animatedGif(), 'image/gif');
    expect(response.status).toBe(201);
    expect(response.body.item).toMatchObject({ contentType: 'image/gif', width: 60, height: 40 });
    const served = await fetchFile(response.body.item.url);
    const metadata = await sharp(served.body as Buffer, { animated: true }).metadata();
    expect(metadata.pages).toBe(3);
  });

  it('delivers an animated WebP as an animated GIF, every frame kept', async () => {
    const webp = await sharp(await animatedGif(), { animated: true })
      .webp()
      .toBuffer();
    expect((await sharp(webp, { animated: true }).metadata()).pages).toBe(3);

    const response = await upload(webp, 'image/webp');

    expect(response.status).toBe(201);
    expect(response.body.item).toMatchObject({ contentType: 'image/gif', width: 60, height: 40 });
    const served = await fetchFile(response.body.item.url);
    expect(served.headers['content-type']).toBe('image/gif');
    const metadata = await sharp(served.body as Buffer, { animated: true }).metadata();
    expect(metadata).toMatchObject({ format: 'gif', pages: 3 });
  });

  it('stores the same file uploaded twice once', async () => {
    const bytes = await solid(70, 70, '#7b2cbf').png().toBuffer();
    const first = await upload(bytes, 'image/png', 'logo.png', 'Agency logo twice');
    const second = await upload(bytes, 'image/png', 'copy.png', 'Another name');
    expect(first.status).toBe(201);
    expect(second.status).toBe(200);
    expect(second.body).toMatchObject({ duplicate: true, item: { id: first.body.item.id } });
    expect(second.body.item.name).toBe('Agency logo twice');
    const list = await as(ctx, manager).get(`${PATH}?search=twic`);
    expect(list.body.items.map((item: MediaDto) => item.id)).toEqual([first.body.item.id]);
    if (mediaDir) {
      const files = (await readdir(mediaDir)).filter((file) => file.startsWith(first.body.item.id));
      expect(files.sort()).toEqual([
        `${first.body.item.id}-thumb.png`,
        `${first.body.item.id}.png`,
      ]);
    }
  });

  it('refuses to delete an image in use until forced, then removes the record and every file', async () => {
    const { body } = await upload(await solid(90, 30, '#0077b6').png().toBuffer(), 'image/png');
    const item = body.item as MediaDto;
    const template = await as(ctx, manager).post('/api/admin/campaign-templates', {
      name: 'With logo',
      header: `<p><img src="${item.url}" alt="Logo"></p>`,
      footer: '<p>Bye</p>',
      layout: '<div>{{header}}{{content}}{{footer}}</div>',
      brandColor: '#b45309',
      backgroundColor: '#fef3c7',
      textColor: '#1f2937',
    });
    expect(template.status).toBe(201);

    const shown = await as(ctx, manager).get(`${PATH}/${item.id}`);
    expect(shown.body.usedBy).toEqual([
      { kind: 'template', id: template.body.id, name: 'With logo' },
    ]);
    const refused = await as(ctx, manager).delete(`${PATH}/${item.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({ code: 'CONFLICT' });
    expect(refused.body.error.fields.usedBy).toContain('With logo');
    expect((await fetchFile(item.url)).status).toBe(200);

    const forced = await as(ctx, manager).delete(`${PATH}/${item.id}?force=true`);
    expect(forced.status).toBe(204);
    expect((await as(ctx, manager).get(`${PATH}/${item.id}`)).status).toBe(404);
    expect((await fetchFile(item.url)).status).toBe(404);
    expect((await fetchFile(item.thumbnailUrl)).status).toBe(404);
  });
});

describe('a bucket served at its own public address', () => {
  it('gives image URLs there rather than through the API', async () => {
    const env = await s3Case.env();
    const ctx = await createTestContext({
      env: { ...env, MEDIA_S3_PUBLIC_URL: 'https://cdn.agency.example/images/' },
    });
    try {
      const manager = await signedInUser(ctx, 'manager');
      const answer = await request(ctx.app.callback())
        .post(PATH)
        .set('Authorization', `Bearer ${manager.token}`)
        .attach('file', await solid(20, 20, '#264653').png().toBuffer(), {
          filename: 'x.png',
          contentType: 'image/png',
        });
      expect(answer.status).toBe(201);
      const item = answer.body.item as MediaDto;
      expect(item.url).toBe(`https://cdn.agency.example/images/${item.id}.png`);
      expect(item.thumbnailUrl).toBe(`https://cdn.agency.example/images/${item.id}-thumb.png`);
    } finally {
      await ctx.close();
    }
  });
});

describe('where an image is used', () => {
  let ctx: TestContext;
  let manager: SignedInUser;
  let mediaDir: string;

  beforeAll(async () => {
    mediaDir = mkdtempSync(join(tmpdir(), 'media-uses-'));
    ctx = await createTestContext({ env: { MEDIA_DIR: mediaDir } });
    manager = await signedInUser(ctx, 'manager');
  });
  afterAll(async () => {
    await ctx.close();
    rmSync(mediaDir, { recursive: true, force: true });
  });

  it('names the drafts showing it in any language, and forgets one once edited out', async () => {
    const uploaded = await request(ctx.app.callback())
      .post(PATH)
      .set('Authorization', `Bearer ${manager.token}`)
      .attach('file', await solid(40, 40, '#e76f51').png().toBuffer(), {
        filename: 'banner.png',
        contentType: 'image/png',
      });
    const item = uploaded.body.item as MediaDto;
    const api = as(ctx, manager);
    const inFrench = await api.post('/api/admin/campaigns', {
      ...validCampaign,
      name: 'Banner in French only',
      translations: [
        {
          locale: 'fr',
          subject: 'Printemps',
          content: `<p><img src="${item.thumbnailUrl}" alt="Bannière"></p>`,
        },
      ],
    });
    expect(inFrench.status).toBe(201);
    const inContent = await api.post('/api/admin/campaigns', {
      ...validCampaign,
      name: 'Banner in content',
      content: `<p><img src="${item.url}" alt="Banner"></p>`,
    });
    expect(inContent.status).toBe(201);

    const shown = await api.get(`${PATH}/${item.id}`);
    expect(shown.body.usedBy).toHaveLength(2);
    expect(shown.body.usedBy).toEqual(
      expect.arrayContaining([
        { kind: 'campaign', id: inFrench.body.id, name: 'Banner in French only', status: 'draft' },
        { kind: 'campaign', id: inContent.body.id, name: 'Banner in content', status: 'draft' },
      ]),
    );

    // A send under way would lose the image from its mails still to go out: even forced, no.
    await CampaignModel.updateOne({ _id: inFrench.body.id }, { $set: { status: 'sending' } });
    const whileSending = await api.delete(`${PATH}/${item.id}?force=true`);
    expect(whileSending.status).toBe(409);
    expect(whileSending.body.error.fields.usedBy).toBe('campaign "Banner in French only"');
    await CampaignModel.updateOne({ _id: inFrench.body.id }, { $set: { status: 'draft' } });

    const edited = await api.put(`/api/admin/campaigns/${inContent.body.id}`, {
      ...validCampaign,
      name: 'Banner in content',
    });
    expect(edited.status).toBe(200);
    const after = await api.get(PATH);
    expect(after.body.items[0].usedBy).toEqual([
      { kind: 'campaign', id: inFrench.body.id, name: 'Banner in French only', status: 'draft' },
    ]);
  });
});

describe("the library's pages, renaming and the activity log", () => {
  let ctx: TestContext;
  let manager: SignedInUser;
  let admin: SignedInUser;
  let mediaDir: string;

  beforeAll(async () => {
    mediaDir = mkdtempSync(join(tmpdir(), 'media-pages-'));
    ctx = await createTestContext({ env: { MEDIA_DIR: mediaDir, MEDIA_UPLOADS_PER_HOUR: '6' } });
    [manager, admin] = await Promise.all([
      signedInUser(ctx, 'manager'),
      signedInUser(ctx, 'admin'),
    ]);
  });
  afterAll(async () => {
    await ctx.close();
    rmSync(mediaDir, { recursive: true, force: true });
  });

  const upload = async (colour: string, name: string) => {
    const answer = await request(ctx.app.callback())
      .post(PATH)
      .set('Authorization', `Bearer ${manager.token}`)
      .field('name', name)
      .attach('file', await solid(30, 30, colour).png().toBuffer(), {
        filename: 'x.png',
        contentType: 'image/png',
      });
    expect(answer.status).toBe(201);
    return answer.body.item as MediaDto;
  };

  it('pages newest first, finds the start of any word, renames, and logs each change', async () => {
    const first = await upload('#111111', 'Summer Sale banner');
    const second = await upload('#222222', 'Équipe photo');
    const third = await upload('#333333', 'Logo');

    const api = as(ctx, manager);
    const page = await api.get(`${PATH}?pageSize=2`);
    expect(page.body.items.map((item: MediaDto) => item.id)).toEqual([third.id, second.id]);
    expect(page.body.next).toEqual(expect.any(String));
    const rest = await api.get(`${PATH}?pageSize=2&after=${page.body.next}`);
    expect(rest.body.items.map((item: MediaDto) => item.id)).toEqual([first.id]);

    const bySale = await api.get(`${PATH}?search=sal`);
    expect(bySale.body.items.map((item: MediaDto) => item.id)).toEqual([first.id]);
    const byAccentless = await api.get(`${PATH}?search=equi`);
    expect(byAccentless.body.items.map((item: MediaDto) => item.id)).toEqual([second.id]);
    expect((await api.get(`${PATH}?search=ale`)).body.items).toEqual([]);

    const renamed = await api.patch(`${PATH}/${third.id}`, { name: 'Agency logo' });
    expect(renamed.status).toBe(200);
    expect(renamed.body.name).toBe('Agency logo');
    expect((await api.get(`${PATH}?search=agen`)).body.items[0].id).toBe(third.id);
    const injected = await api.patch(`${PATH}/${third.id}`, { name: { $gt: '' } });
    expect(injected.status).toBe(400);
    expect(injected.body.error.fields).toHaveProperty('name');
    expect((await api.get(`${PATH}/${third.id}`)).body.name).toBe('Agency logo');
    expect((await api.delete(`${PATH}/${second.id}`)).status).toBe(204);

    const log = await as(ctx, admin).get(`/api/admin/activity-logs?actor=${manager.id}`);
    const entries = log.body.items as { action: string; target: { id: string } }[];
    expect(entries.map(({ action, target }) => [action, target.id]).slice(0, 5)).toEqual([
      ['media.delete', second.id],
      ['media.update', third.id],
      ['media.upload', third.id],
      ['media.upload', second.id],
      ['media.upload', first.id],
    ]);
  });

  it('limits uploads per staff member per hour', async () => {
    const answers = [];
    for (const colour of ['#444444', '#555555', '#666666', '#777777']) {
      answers.push(
        await request(ctx.app.callback())
          .post(PATH)
          .set('Authorization', `Bearer ${manager.token}`)
          .attach('file', await solid(30, 30, colour).png().toBuffer(), {
            filename: 'x.png',
            contentType: 'image/png',
          }),
      );
    }
    // Three uploads in the test before, six an hour.
    expect(answers.map((answer) => answer.status)).toEqual([201, 201, 201, 429]);
  });
});

describe("the public files' limit per client", () => {
  let ctx: TestContext;
  let mediaDir: string;
  let path: string;

  beforeAll(async () => {
    mediaDir = mkdtempSync(join(tmpdir(), 'media-limit-'));
    ctx = await createTestContext({
      env: { MEDIA_DIR: mediaDir, TRUST_PROXY: 'true', MEDIA_FILE_RATE_LIMIT_MAX: '3' },
    });
    const manager = await signedInUser(ctx, 'manager');
    const uploaded = await request(ctx.app.callback())
      .post(PATH)
      .set('Authorization', `Bearer ${manager.token}`)
      .attach('file', await solid(20, 20, '#abcdef').png().toBuffer(), {
        filename: 'x.png',
        contentType: 'image/png',
      });
    path = new URL((uploaded.body.item as MediaDto).url).pathname;
  });
  afterAll(async () => {
    await ctx.close();
    rmSync(mediaDir, { recursive: true, force: true });
  });

  /** A request from `ip` (an image proxy, a mail client) through the trusted proxy. */
  const from = (ip: string, method: 'get' | 'head' = 'get') =>
    request(ctx.app.callback())[method](path).set('X-Forwarded-For', ip);

  it('answers 429 with Retry-After past the limit, other clients and revalidations unaffected', async () => {
    const statuses = [];
    for (const method of ['get', 'head', 'get'] as const) {
      statuses.push((await from('198.51.100.7', method)).status);
    }
    const refused = await from('198.51.100.7');
    expect([...statuses, refused.status]).toEqual([200, 200, 200, 429]);
    expect(refused.body.error.code).toBe('RATE_LIMITED');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);

    // Another reader's proxy still gets the image.
    const other = await from('198.51.100.9');
    expect(other.status).toBe(200);
    const etag: string = other.headers.etag ?? '';
    expect(etag).toBeTruthy();

    // A copy already held is revalidated on its own, larger budget (ten per download).
    const revalidations = [];
    for (let i = 0; i < 31; i += 1) {
      revalidations.push((await from('198.51.100.7').set('If-None-Match', etag)).status);
    }
    expect(revalidations.slice(0, 30)).toEqual(Array(30).fill(304));
    expect(revalidations[30]).toBe(429);
  });
});

describe('media uploads refused', () => {
  let ctx: TestContext;
  let manager: SignedInUser;
  let viewer: SignedInUser;
  let mediaDir: string;
  /** Where the API keeps uploads while they are read (MEDIA_UPLOAD_DIR). */
  let uploadsDir: string;

  beforeAll(async () => {
    mediaDir = mkdtempSync(join(tmpdir(), 'media-refusals-'));
    uploadsDir = mkdtempSync(join(tmpdir(), 'media-uploads-'));
    ctx = await createTestContext({ env: { MEDIA_DIR: mediaDir, MEDIA_UPLOAD_DIR: uploadsDir } });
    [manager, viewer] = await Promise.all([
      signedInUser(ctx, 'manager'),
      signedInUser(ctx, 'viewer'),
    ]);
  });
  afterAll(async () => {
    await ctx.close();
    rmSync(mediaDir, { recursive: true, force: true });
    rmSync(uploadsDir, { recursive: true, force: true });
  });

  const upload = (bytes: Buffer, contentType: string, user: SignedInUser | null = manager) => {
    const call = request(ctx.app.callback()).post(PATH);
    const signed = user ? call.set('Authorization', `Bearer ${user.token}`) : call;
    return signed.attach('file', bytes, { filename: 'upload', contentType });
  };

  const expectRefusal = async (
    answer: request.Response,
    status: number,
    file: string,
  ): Promise<void> => {
    expect({ status: answer.status, file: answer.body.error?.fields?.file }).toEqual({
      status,
      file,
    });
    expect(answer.body.error.message).toBe(file);
    // Nothing of a refused upload is kept, not even the upload while it was read.
    expect(await readdir(mediaDir).catch(() => [])).toEqual([]);
    expect(await readdir(uploadsDir)).toEqual([]);
  };

  it('keeps no copy of an upload it stored once it has answered', async () => {
    const answer = await upload(await solid(64, 48, '#16a085').png().toBuffer(), 'image/png');
    expect(answer.status).toBe(201);
    expect(await readdir(uploadsDir)).toEqual([]);
    // The library is left empty for the refusals below.
    const removed = await request(ctx.app.callback())
      .delete(`${PATH}/${(answer.body.item as MediaDto).id}`)
      .set('Authorization', `Bearer ${manager.token}`);
    expect(removed.status).toBe(204);
  });

  it('refuses SVG, declared or found in the bytes', async () => {
    const refused = 'SVG images are not accepted: they can carry scripts';
    await expectRefusal(await upload(SVG, 'image/svg+xml'), 415, refused);
    await expectRefusal(await upload(SVG, 'image/png'), 415, refused);
  });

  it('refuses an image that also carries HTML (a polyglot)', async () => {
    const png = await solid(20, 20, '#ffffff').png().toBuffer();
    const polyglot = Buffer.concat([png, Buffer.from('<html><script>alert(1)</script></html>')]);
    await expectRefusal(
      await upload(polyglot, 'image/png'),
      415,
      "The file's content is not the image its type claims",
    );
    // Deep in a large file too, where the scan reads it in slices.
    const photo = await sharp({
      create: {
        width: 600,
        height: 600,
        channels: 3,
        background: '#808080',
        noise: { type: 'gaussian', mean: 128, sigma: 40 },
      },
    })
      .jpeg({ quality: 95 })
      .toBuffer();
    const at = 256 * 1024 - 3;
    expect(photo.length).toBeGreaterThan(at + 100);
    const deep = Buffer.concat([
      photo.subarray(0, at),
      Buffer.from('<iframe src=x>'),
      photo.subarray(at),
    ]);
    await expectRefusal(
      await upload(deep, 'image/jpeg'),
      415,
      "The file's content is not the image its type claims",
    );
  });

  it('refuses a type that disagrees with the bytes, and what is no image', async () => {
    const png = await solid(20, 20, '#ffffff').png().toBuffer();
    const mismatch = "The file's content is not the image its type claims";
    await expectRefusal(await upload(png, 'image/jpeg'), 415, mismatch);
    await expectRefusal(await upload(Buffer.from('just some text'), 'image/png'), 415, mismatch);
    const unsupported = 'Only JPEG, PNG, GIF and WebP images are accepted';
    await expectRefusal(
      await upload(Buffer.from('%PDF-1.4 text'), 'application/pdf'),
      415,
      unsupported,
    );
    await expectRefusal(await upload(png, 'application/octet-stream'), 415, unsupported);
    const tiff = await solid(20, 20, '#ffffff').tiff().toBuffer();
    await expectRefusal(await upload(tiff, 'image/jpeg'), 415, unsupported);
  });

  it('refuses a decompression bomb from its header, before decoding it', async () => {
    const bomb = await solid(8000, 6000, '#000000').png({ compressionLevel: 9 }).toBuffer();
    expect(bomb.length).toBeLessThan(1024 * 1024);
    await expectRefusal(
      await upload(bomb, 'image/png'),
      400,
      'The image has more than 40 million pixels',
    );
  });

  it('counts every frame of an animation against the pixel limit', async () => {
    // 11 frames of 4 megapixels: each frame is small, all of them are not.
    const frames = await Promise.all(
      ['red', 'blue'].map((colour) => solid(2000, 2000, colour).png().toBuffer()),
    );
    const gif = await sharp(
      Array.from({ length: 11 }, (_, index) => frames[index % 2] as Buffer),
      { join: { animated: true } },
    )
      .gif()
      .toBuffer();
    await expectRefusal(
      await upload(gif, 'image/gif'),
      400,
      'The image has more than 40 million pixels',
    );
  });

  it('refuses a 12 MB file with 413', async () => {
    const big = Buffer.alloc(12 * 1024 * 1024, 7);
    await expectRefusal(await upload(big, 'image/jpeg'), 413, 'The image is larger than 10 MB');
  });

  it('refuses a 12 MB file sent without a length while it streams', async () => {
    const server = createServer(ctx.app.callback()).listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { port } = server.address() as AddressInfo;
    const boundary = 'media-test-boundary';
    let sent = 0;
    try {
      const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const call = httpRequest(
          {
            host: '127.0.0.1',
            port,
            method: 'POST',
            path: PATH,
            headers: {
              Authorization: `Bearer ${manager.token}`,
              'Content-Type': `multipart/form-data; boundary=${boundary}`,
              'Transfer-Encoding': 'chunked',
            },
          },
          (response) => {
            const chunks: Buffer[] = [];
            response.on('data', (chunk: Buffer) => chunks.push(chunk));
            response.on('end', () =>
              resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString() }),
            );
          },
        );
        call.on('error', reject);
        call.write(
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.jpg"\r\n` +
            'Content-Type: image/jpeg\r\n\r\n',
        );
        const chunk = Buffer.alloc(256 * 1024, 7);
        const more = () => {
          // Stops once answered: the refusal must come before the whole file is read.
          while (sent < 12 * 1024 * 1024 && !call.destroyed) {
            sent += chunk.length;
            if (!call.write(chunk)) {
              call.once('drain', more);
              return;
            }
          }
          call.end(`\r\n--${boundary}--\r\n`);
        };
        more();
      });
      expect(answer.status).toBe(413);
      expect(JSON.parse(answer.body).error.fields.file).toBe('The image is larger than 10 MB');
      expect(await readdir(mediaDir).catch(() => [])).toEqual([]);
      expect(await readdir(uploadsDir)).toEqual([]);
    } finally {
      // The client may still be sending what the API stopped reading.
      server.closeAllConnections();
      server.close();
    }
  });

  it('refuses a damaged image and a request without a file', async () => {
    const jpeg = await solid(300, 300, '#abcdef').jpeg().toBuffer();
    await expectRefusal(
      await upload(jpeg.subarray(0, 400), 'image/jpeg'),
      400,
      'The image could not be read: it may be damaged',
    );
    const empty = await request(ctx.app.callback())
      .post(PATH)
      .set('Authorization', `Bearer ${manager.token}`)
      .field('name', 'nothing');
    await expectRefusal(empty, 400, 'Choose an image to upload');
  });

  it('lets a viewer read the library but not upload, and no one in without signing in', async () => {
    const png = await solid(20, 20, '#ffffff').png().toBuffer();
    expect((await upload(png, 'image/png', viewer)).status).toBe(403);
    expect((await upload(png, 'image/png', null)).status).toBe(401);
    expect((await as(ctx, viewer).get(PATH)).status).toBe(200);
    expect((await as(ctx, null).get(PATH)).status).toBe(401);
    const id = 'a'.repeat(64);
    expect((await as(ctx, viewer).delete(`${PATH}/${id}`)).status).toBe(403);
    expect((await as(ctx, viewer).patch(`${PATH}/${id}`, { name: 'x' })).status).toBe(403);
  });

  it('answers a malformed id with 400 naming it', async () => {
    for (const id of ['nope', '%7B%22%24gt%22%3A%22%22%7D', 'A'.repeat(64)]) {
      const answer = await as(ctx, manager).patch(`${PATH}/${id}`, { name: 'x' });
      expect({ id, status: answer.status }).toEqual({ id, status: 400 });
      expect(answer.body.error.fields).toHaveProperty('id');
    }
    const unknown = await as(ctx, manager).get(`${PATH}/${'b'.repeat(64)}`);
    expect(unknown.status).toBe(404);
  });
});
