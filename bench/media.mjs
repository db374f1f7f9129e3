// @ts-check
/**
 * `npm run bench:media`: the media library's uploads through the real API.
 *
 * 1. Time to a usable image: a 5 MB, 4000x3000 JPEG uploaded `--uploads`
 *    times (each made distinct, so none is taken for a duplicate), one after
 *    the other; from the request's start to its 201 (the mail variant and the
 *    thumbnail are stored by then): p50 and p95.
 * 2. The enquiry form's POST /api/contact under autocannon, alone, then while
 *    `--parallel` (10) uploads are processed at once, over and over: p99
 *    of both and their ratio (target: at most 1.5x), and the peak RSS
 *    (VmHWM) of the API's image process and of the API during the uploads.
 *    Alone and beside uploads take turns `--rounds` times; the medians of
 *    each side are compared (one garbage collection moves a 10 s p99).
 * Compare ratios within one run: the load generator shares the machine.
 *
 * --scale N: the cost curve of the library's size instead of 2. A library of
 * --library (default 200) images, then of N times as many, each on a fresh
 * database with a fresh API, seeded through the API as the dashboard
 * uploads (small distinct JPEGs, 4 at once, named from a word list); then at
 * each size the photo's upload to a usable image (--uploads times), the
 * API's, image process's and store's CPU per upload, the library's first page
 * and a search by a word's start (--reads times each), and the API's and
 * image process's peak RSS (VmHWM).
 *
 *   npm run build && npm run bench:media [-- --uploads 20 --parallel 10 --duration 10 --rounds 3]
 *     [-- --scale 10 --library 200 --reads 50]
 * Uses MONGODB_URI / REDIS_URL when set (use throw-away ones), else starts both.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { createRequire } from 'node:module';
import autocannon from 'autocannon';
import { startServices } from '../scripts/lib/services.mjs';
import {
  printCostCurve,
  printReport,
  runBench,
  runCleanups,
  wholeNumberOption,
  targetBook,
} from './lib/bench-steps.mjs';
import { postFile } from './lib/post-file.mjs';
import { timeStaffRead } from './lib/staff-read.mjs';
import {
  childProcessesOf,
  cpuSince,
  freePort,
  peakRssMbOf,
  resetPeakRssOf,
} from './lib/processes.mjs';
import { apiUrlOf, benchAppEnv, signIn, startApi } from './lib/stack-processes.mjs';

const root = resolve(import.meta.dirname, '..');
const require = createRequire(join(root, 'backend', 'package.json'));
/** @type {typeof import('@agency/contracts')} */
const { API_ROUTES, MEDIA_UPLOAD_FIELD, withDatabaseName } = require('@agency/contracts');
/** @type {typeof import('sharp')} */
const sharp = require('sharp');
const { values: args } = parseArgs({
  options: {
    uploads: { type: 'string', default: '20' },
    parallel: { type: 'string', default: '10' },
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '10' },
    rounds: { type: 'string', default: '3' },
    scale: { type: 'string' },
    library: { type: 'string', default: '200' },
    reads: { type: 'string', default: '50' },
  },
});
const SCALE = wholeNumberOption('scale', args.scale);
const LIBRARY = wholeNumberOption('library', args.library);
const READS = wholeNumberOption('reads', args.reads);
const UPLOADS = Number(args.uploads);
const PARALLEL = Number(args.parallel);
const DURATION = Number(args.duration);
const CONNECTIONS = Number(args.connections);
const ROUNDS = Number(args.rounds);
const TARGETS = { p99Ratio: 1.5 };

const enquiry = {
  firstName: 'Amira',
  lastName: 'Ben Salah',
  email: 'amira@example.tn',
  phone: '+216 20 123 456',
  service: 'web-design',
  message: 'We need a new website for our bakery chain in Sfax and Sousse.',
};

if (!existsSync(join(root, 'backend/dist/server.js'))) {
  console.error('backend/dist/server.js is missing: run npm run build first');
  process.exit(1);
}

/** A photo-like 4000x3000 JPEG of about 5 MB: noise compresses as little as a photo. */
function basePhoto() {
  return sharp({
    create: {
      width: 4000,
      height: 3000,
      channels: 3,
      background: '#808080',
      noise: { type: 'gaussian', mean: 128, sigma: 30 },
    },
  })
    .jpeg({ quality: 83 })
    .toBuffer();
}

/**
 * The photo with a comment segment of its own after the start marker: other
 * bytes, so another content hash, and the same pixels. Answered as its
 * parts, the photo's bytes shared rather than copied: a browser elsewhere
 * on the network pays for its uploads, and the bench's copies of 5 MB would
 * take the CPU the API is measured on (about a fifth of a core at 8 uploads
 * a second, in the sending thread and V8's collector threads).
 * @param {Buffer} jpeg @param {number} index @returns {Buffer[]}
 */
function distinctCopy(jpeg, index) {
  const text = Buffer.from(`bench upload ${index} ${Date.now()}`);
  const segment = Buffer.alloc(6 + text.length);
  jpeg.copy(segment, 0, 0, 2);
  segment.writeUInt16BE(0xfffe, 2);
  segment.writeUInt16BE(text.length + 2, 4);
  text.copy(segment, 6);
  return [segment, jpeg.subarray(2)];
}

/**
 * One upload as the dashboard sends it, with a display name when given;
 * resolves to its time in ms. The multipart body is made before the clock
 * starts and sent as its parts in one write.
 * @param {string} url @param {Record<string, string>} auth @param {Buffer[]} parts @param {string} [name]
 */
async function upload(url, auth, parts, name) {
  const boundary = `bench-${Math.random().toString(36).slice(2)}`;
  const nameField =
    name === undefined
      ? ''
      : `--${boundary}\r\nContent-Disposition: form-data; name="name"\r\n\r\n${name}\r\n`;
  const body = [
    Buffer.from(
      `${nameField}--${boundary}\r\nContent-Disposition: form-data; name="${MEDIA_UPLOAD_FIELD}"; ` +
        'filename="photo.jpg"\r\nContent-Type: image/jpeg\r\n\r\n',
    ),
    ...parts,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ];
  const headers = { ...auth, 'content-type': `multipart/form-data; boundary=${boundary}` };
  const started = performance.now();
  const { status } = await postFile(url, headers, body);
  if (status !== 201) throw new Error(`upload answered ${status}`);
  return performance.now() - started;
}

/** @param {number[]} values @param {number} share */
function percentile(values, share) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)] ?? 0;
}

/**
 * The item whose figure is the median (the lower of the middle two).
 * @template T @param {T[]} items @param {(item: T) => number} figure @returns {T}
 */
function medianBy(items, figure) {
  const sorted = [...items].sort((a, b) => figure(a) - figure(b));
  return /** @type {T} */ (sorted[Math.floor((sorted.length - 1) / 2)]);
}

/** @param {string} apiUrl */
async function enquiryLoad(apiUrl) {
  const result = await autocannon({
    url: `${apiUrl}${API_ROUTES.contactForm}`,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(enquiry),
    connections: CONNECTIONS,
    duration: DURATION,
  });
  return { p50: result.latency.p50, p99: result.latency.p99, ok: result['2xx'] };
}

/**
 * The API on a fresh database of the stores, its images in a folder of its
 * own; signed in as the bench's admin.
 * @param {{ dataDir: string, services: { mongodbUri: string, redisUrl: string } }} where
 * @param {(() => unknown)[]} cleanups
 */
async function startMediaApi({ dataDir, services }, cleanups) {
  const stamp = Date.now();
  const env = benchAppEnv(
    {
      dataDir,
      mongodbUri: withDatabaseName(services.mongodbUri, `bench_media_${stamp}`),
      redisUrl: services.redisUrl,
      queuePrefix: `benchmedia${stamp}`,
      apiPort: await freePort(),
      // No worker runs: the enquiries wait in their queue.
      smtpUrl: 'smtp://127.0.0.1:9',
    },
    {
      CONTACT_RATE_LIMIT_MAX: '1000000',
      MEDIA_UPLOADS_PER_HOUR: '100000',
      MEDIA_DIR: join(dataDir, `media-${stamp}`),
    },
  );
  const apiUrl = apiUrlOf(env);
  const api = startApi(env);
  cleanups.push(api.stop);
  await api.healthy();
  const auth = await signIn(apiUrl);
  return { api, apiUrl, auth, mediaUrl: `${apiUrl}${API_ROUTES.media}` };
}

/**
 * @typedef {{ mongodbUri: string, redisUrl: string, started: { name: string, pid: number }[] }} Services
 */

/** Words the seeded images' names start with: a search by one finds a tenth of the library. */
const NAME_WORDS = [
  'bakery',
  'harbour',
  'shopfront',
  'terrace',
  'medina',
  'olive',
  'market',
  'studio',
  'garden',
  'coffee',
];

/** A small JPEG (64x48) whose distinct copies fill the library cheaply. */
function smallImage() {
  return sharp({
    create: { width: 64, height: 48, channels: 3, background: '#4a7a9c' },
  })
    .jpeg({ quality: 80 })
    .toBuffer();
}

/**
 * Fills the library with `count` small distinct images through the API, 4 at once.
 * @param {Awaited<ReturnType<typeof startMediaApi>>} app @param {number} count
 */
async function seedLibrary({ mediaUrl, auth }, count) {
  const image = await smallImage();
  let next = 0;
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (next < count) {
        const index = (next += 1);
        const name = `${NAME_WORDS[(index - 1) % NAME_WORDS.length]} ${index}`;
        await upload(mediaUrl, auth, distinctCopy(image, index), name);
      }
    }),
  );
}

/**
 * One size of the cost curve: a fresh API over a library of `count`
 * images, then the photo's uploads and the library screen's reads.
 * @param {{ dataDir: string, services: Services }} where
 * @param {Buffer} photo @param {number} count
 */
async function measureLibrary(where, photo, count) {
  /** @type {(() => unknown)[]} */
  const cleanups = [];
  try {
    const app = await startMediaApi(where, cleanups);
    const seeded = performance.now();
    await seedLibrary(app, count);
    console.log(`${count} images seeded in ${((performance.now() - seeded) / 1000).toFixed(0)} s`);
    const [imagePid] = childProcessesOf(app.api.pid);
    if (!imagePid) throw new Error('the API started no image process');
    app.api.resetPeakRss();
    resetPeakRssOf(imagePid);
    const stores = where.services.started.filter(({ name }) => name !== 'redis');
    const cpu = cpuSince([
      { name: 'api', pid: app.api.pid },
      { name: 'image', pid: imagePid },
      ...stores,
    ]);
    const times = [];
    for (let index = 0; index < UPLOADS; index += 1)
      times.push(await upload(app.mediaUrl, app.auth, distinctCopy(photo, index)));
    const spent = cpu();
    const storeSeconds = stores.reduce((sum, { name }) => sum + (spent[name] ?? 0), 0);
    const reads = { times: READS, warmUp: 5 };
    const list = await timeStaffRead(app.apiUrl, API_ROUTES.media, app.auth, reads);
    const search = await timeStaffRead(
      app.apiUrl,
      `${API_ROUTES.media}?search=bak`,
      app.auth,
      reads,
    );
    // A search that found nothing would time an empty answer.
    if (!JSON.parse(search.body).items?.length) throw new Error('the search found no image');
    return {
      'upload to a usable image p50 ms': Math.round(percentile(times, 0.5)),
      'upload to a usable image p95 ms': Math.round(percentile(times, 0.95)),
      'API CPU ms/upload': Math.round(((spent.api ?? 0) * 1000) / UPLOADS),
      'image process CPU ms/upload': Math.round(((spent.image ?? 0) * 1000) / UPLOADS),
      'store CPU ms/upload': Math.round((storeSeconds * 1000) / UPLOADS),
      'library first page p50 ms': Number(list.p50.toFixed(1)),
      'library first page p99 ms': Number(list.p99.toFixed(1)),
      'search "bak" p50 ms': Number(search.p50.toFixed(1)),
      'search "bak" p99 ms': Number(search.p99.toFixed(1)),
      'API peak RSS MB': Math.round(app.api.peakRssMb()),
      'image process peak RSS MB': Math.round(peakRssMbOf(imagePid)),
    };
  } finally {
    await runCleanups(cleanups);
  }
}

/**
 * The cost curve: the library at LIBRARY images and at SCALE times as many.
 * @param {{ dataDir: string, services: Services }} where
 */
async function costCurve(where) {
  const photo = await basePhoto();
  const sizes = [];
  for (const count of [LIBRARY, LIBRARY * SCALE]) {
    console.log(`a library of ${count} images...`);
    const size = await measureLibrary(where, photo, count);
    // Printed at once too: a long run's figures outlive a later size's failure.
    console.table(size);
    sizes.push(size);
  }
  const [small, large] = sizes;
  if (!small || !large) return;
  printCostCurve(
    `bench:media cost curve: a library of ${LIBRARY} (1x) and ${LIBRARY * SCALE} images (${SCALE}x); ${UPLOADS} uploads of a ${(photo.length / 1024 / 1024).toFixed(1)} MB 4000x3000 JPEG and ${READS} reads of each screen at each`,
    SCALE,
    small,
    large,
  );
}

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'agency-bench-media-'));
  /** @type {(() => unknown)[]} */
  const cleanups = [() => rmSync(dataDir, { recursive: true, force: true })];
  try {
    const services = await startServices({ dataDir, mailCatcher: false });
    cleanups.push(services.stop);
    if (SCALE > 1) {
      await costCurve({ dataDir, services });
      return;
    }
    const { api, apiUrl, auth, mediaUrl } = await startMediaApi({ dataDir, services }, cleanups);
    const photo = await basePhoto();
    let made = 0;
    const next = () => distinctCopy(photo, (made += 1));

    // 1. Time to a usable image, one upload at a time (one to warm up,
    // which also starts the API's image process).
    await upload(mediaUrl, auth, next());
    const [imagePid] = childProcessesOf(api.pid);
    if (!imagePid) throw new Error('the API started no image process');
    const times = [];
    for (let index = 0; index < UPLOADS; index += 1)
      times.push(await upload(mediaUrl, auth, next()));

    // 2. The enquiry's p99 alone, then beside PARALLEL uploads at all times,
    // ROUNDS times in turn: a p99 of 10 s moves with one garbage collection,
    // so each side's median is compared.
    api.resetPeakRss();
    resetPeakRssOf(imagePid);
    /** @type {{ alone: Awaited<ReturnType<typeof enquiryLoad>>, loaded: Awaited<ReturnType<typeof enquiryLoad>>, uploads: number }[]} */
    const rounds = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      const alone = await enquiryLoad(apiUrl);
      const uploader = startUploader({ mediaUrl, auth, photo, made: made + round * 100_000 });
      // The uploads under way first: the form is measured beside them, not before.
      await new Promise((done) => setTimeout(done, 1000));
      const loaded = await enquiryLoad(apiUrl);
      rounds.push({ alone, loaded, uploads: await uploader.stop() });
    }
    const peakRss = api.peakRssMb();
    const imagePeakRss = peakRssMbOf(imagePid);
    const alone = medianBy(rounds, (one) => one.alone.p99).alone;
    const loaded = medianBy(rounds, (one) => one.loaded.p99).loaded;
    const uploadedMeanwhile = rounds.reduce((sum, one) => sum + one.uploads, 0);
    const eachRound = rounds
      .map((one) => `${(one.loaded.p99 / Math.max(one.alone.p99, 1)).toFixed(2)}x`)
      .join(', ');

    const { missed, check } = targetBook();
    const ratio = loaded.p99 / Math.max(alone.p99, 1);
    printReport(
      `bench:media, a ${(photo.length / 1024 / 1024).toFixed(1)} MB 4000x3000 JPEG; enquiries by ${CONNECTIONS} connections for ${DURATION} s`,
      [
        [
          'upload to a usable image, p50',
          `${percentile(times, 0.5).toFixed(0)} ms`,
          `${UPLOADS} uploads, one at a time`,
        ],
        ['upload to a usable image, p95', `${percentile(times, 0.95).toFixed(0)} ms`, ''],
        [
          'enquiry submit p99, alone',
          `${alone.p99} ms`,
          `median of ${ROUNDS} rounds; p50 ${alone.p50} ms, ${alone.ok} sent`,
        ],
        [
          `enquiry submit p99, ${PARALLEL} uploads at once`,
          `${loaded.p99} ms, ${ratio.toFixed(2)}x`,
          check(
            'enquiry p99 beside uploads',
            ratio <= TARGETS.p99Ratio,
            `<= ${TARGETS.p99Ratio}x alone`,
          ),
        ],
        ['each round, p99 beside uploads / alone', eachRound, ''],
        [
          'uploads done meanwhile',
          `${uploadedMeanwhile}`,
          `all rounds; p50 of the enquiries ${loaded.p50} ms`,
        ],
        ['image process peak RSS (VmHWM), same time', `${imagePeakRss.toFixed(0)} MB`, ''],
        ['API peak RSS (VmHWM), same time', `${peakRss.toFixed(0)} MB`, ''],
      ],
      missed,
    );
  } finally {
    await runCleanups(cleanups);
  }
}

/**
 * Keeps PARALLEL uploads under way, each started as the last ends, until
 * told to stop; then answers how many were done. It runs on a thread of its
 * own: on the measuring thread, sending 5 MB bodies would delay autocannon's
 * own timing of the enquiries.
 * @param {{ mediaUrl: string, auth: Record<string, string>, photo: Buffer, made: number }} data
 */
async function keepUploading({ mediaUrl, auth, photo, made }) {
  let busy = true;
  let done = 0;
  let index = made;
  // The thread gets the photo as a plain Uint8Array.
  const jpeg = Buffer.from(photo.buffer, photo.byteOffset, photo.byteLength);
  parentPort?.once('message', () => (busy = false));
  await Promise.all(
    Array.from({ length: PARALLEL }, async () => {
      while (busy) {
        await upload(mediaUrl, auth, distinctCopy(jpeg, (index += 1)));
        done += 1;
      }
    }),
  );
  parentPort?.postMessage(done);
}

/** @param {{ mediaUrl: string, auth: Record<string, string>, photo: Buffer, made: number }} data */
function startUploader(data) {
  const thread = new Worker(new URL(import.meta.url), {
    workerData: data,
    argv: process.argv.slice(2),
  });
  const counted = new Promise((resolve, reject) => {
    thread.once('message', resolve);
    thread.once('error', reject);
  });
  return {
    /** @returns {Promise<number>} the uploads done */
    async stop() {
      thread.postMessage('stop');
      const done = /** @type {number} */ (await counted);
      await thread.terminate();
      return done;
    },
  };
}

if (isMainThread) runBench(main);
else void keepUploading(workerData);
