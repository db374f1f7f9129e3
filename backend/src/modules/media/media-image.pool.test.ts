import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { buildWorkspaces } from '@agency/platform/testing/build-workspaces';
import { HttpError } from '../../errors';
import { createImageProcessPool, type ImageProcessor } from './media-image.pool';
import { MediaRefusal } from './media-refusal';

const photo = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: '#2e86de' } })
    .jpeg()
    .toBuffer();

/**
 * Each thread of a process: its nice value and its scheduling policy
 * (fields 19 and 41 of /proc/<pid>/task/<tid>/stat).
 */
function threadPriorities(pid: number): { nice: number; policy: number }[] {
  return readdirSync(`/proc/${pid}/task`).map((tid) => {
    const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
    // The command name, in parentheses, may hold spaces: count fields after it.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { nice: Number(fields[16]), policy: Number(fields[38]) };
  });
}

/** Linux's SCHED_IDLE: a thread that runs only on a core no other thread wants. */
const SCHED_IDLE = 5;

const folder = mkdtempSync(join(tmpdir(), 'image-process-test-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));
let kept = 0;
/** An upload as the API keeps it: in a file of its own. */
function keptUpload(bytes: Buffer): string {
  const path = join(folder, `upload-${(kept += 1)}`);
  writeFileSync(path, bytes);
  return path;
}

describe('the image process', () => {
  let pool: ImageProcessor;

  beforeAll(() => buildWorkspaces('backend'), 120_000);
  beforeEach(() => {
    pool = createImageProcessPool({ concurrency: 2 });
  });
  afterEach(() => pool.close());

  it('makes the variants in a process of its own, every thread of it run only when a core is idle', async () => {
    const bytes = await photo(2400, 1600);
    const { hash, image } = await pool.process(keptUpload(bytes), 'image/jpeg');
    expect(hash).toBe(createHash('sha256').update(bytes).digest('hex'));
    expect(image).toMatchObject({ extension: 'jpg', originalWidth: 2400, originalHeight: 1600 });
    expect(image.mail).toMatchObject({ width: 1200, height: 800, contentType: 'image/jpeg' });
    expect(Buffer.isBuffer(image.thumbnail.bytes)).toBe(true);
    expect((await sharp(image.thumbnail.bytes).metadata()).width).toBe(320);

    const pid = pool.pid;
    expect(pid).toBeGreaterThan(0);
    expect(pid).not.toBe(process.pid);
    const threads = threadPriorities(pid as number);
    // Node, V8, libuv and libvips threads all ran the work above.
    expect(threads.length).toBeGreaterThan(4);
    expect(new Set(threads.map((thread) => thread.nice))).toEqual(new Set([19]));
    expect(new Set(threads.map((thread) => thread.policy))).toEqual(new Set([SCHED_IDLE]));
  });

  it("passes a refusal back as the API's, with its reason", async () => {
    const html = Buffer.from('<html><script>alert(1)</script></html>');
    const refused = pool.process(keptUpload(html), 'image/png');
    await expect(refused).rejects.toBeInstanceOf(MediaRefusal);
    await expect(refused).rejects.toMatchObject({
      code: 'UNSUPPORTED_MEDIA_TYPE',
      reason: { key: 'mediaContentMismatch' },
    });
  });

  it('answers 503 for the uploads in a process that ends, and starts another for the next', async () => {
    const small = keptUpload(await photo(40, 30));
    await pool.process(small, 'image/jpeg');
    const first = pool.pid as number;
    const large = keptUpload(await photo(6000, 4000));
    const inFlight = pool.process(large, 'image/jpeg');
    const alsoInFlight = pool.process(large, 'image/jpeg');
    process.kill(first, 'SIGKILL');
    for (const upload of [inFlight, alsoInFlight]) {
      await expect(upload).rejects.toBeInstanceOf(HttpError);
      await expect(upload).rejects.toMatchObject({ code: 'UNAVAILABLE' });
    }

    const next = await pool.process(small, 'image/jpeg');
    expect(next.image.mail.width).toBe(40);
    expect(pool.pid).not.toBe(first);
  });
});
