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
 *    of both and their ratio (target: at most 1.5x), and the API's peak RSS
 *    (VmHWM) during the uploads.
 * Compare ratios within one run: the load generator shares the machine.
 *
 *   npm run build && npm run bench:media [-- --uploads 20 --parallel 10 --duration 10]
 * Uses MONGODB_URI / REDIS_URL when set (use throw-away ones), else starts both.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createRequire } from 'node:module';
import autocannon from 'autocannon';
import { startServices } from '../scripts/lib/services.mjs';
import { printReport, runBench, runCleanups, targetBook } from './lib/bench-steps.mjs';
import { freePort } from './lib/processes.mjs';
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
  },
});
const UPLOADS = Number(args.uploads);
const PARALLEL = Number(args.parallel);
const DURATION = Number(args.duration);
const CONNECTIONS = Number(args.connections);
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
 * bytes, so another content hash, and the same pixels.
 * @param {Buffer} jpeg @param {number} index
 */
function distinctCopy(jpeg, index) {
  const text = Buffer.from(`bench upload ${index} ${Date.now()}`);
  const length = Buffer.alloc(2);
  length.writeUInt16BE(text.length + 2);
  return Buffer.concat([
    jpeg.subarray(0, 2),
    Buffer.from([0xff, 0xfe]),
    length,
    text,
    jpeg.subarray(2),
  ]);
}

/**
 * One upload as the dashboard sends it; resolves to its time in ms.
 * @param {string} url @param {Record<string, string>} auth @param {Buffer} bytes
 */
async function upload(url, auth, bytes) {
  const form = new FormData();
  form.append(MEDIA_UPLOAD_FIELD, new Blob([bytes], { type: 'image/jpeg' }), 'photo.jpg');
  const started = performance.now();
  const response = await fetch(url, { method: 'POST', headers: auth, body: form });
  await response.arrayBuffer();
  if (response.status !== 201) throw new Error(`upload answered ${response.status}`);
  return performance.now() - started;
}

/** @param {number[]} values @param {number} share */
function percentile(values, share) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)] ?? 0;
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

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'agency-bench-media-'));
  /** @type {(() => unknown)[]} */
  const cleanups = [() => rmSync(dataDir, { recursive: true, force: true })];
  try {
    const services = await startServices({ dataDir, mailCatcher: false });
    cleanups.push(services.stop);
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
        MEDIA_DIR: join(dataDir, 'media'),
      },
    );
    const apiUrl = apiUrlOf(env);
    const api = startApi(env);
    cleanups.push(api.stop);
    await api.healthy();
    const auth = await signIn(apiUrl);
    const mediaUrl = `${apiUrl}${API_ROUTES.media}`;
    const photo = await basePhoto();
    let made = 0;
    const next = () => distinctCopy(photo, (made += 1));

    // 1. Time to a usable image, one upload at a time (one to warm up).
    await upload(mediaUrl, auth, next());
    const times = [];
    for (let index = 0; index < UPLOADS; index += 1)
      times.push(await upload(mediaUrl, auth, next()));

    // 2. The enquiry's p99 alone, then beside PARALLEL uploads at all times.
    const alone = await enquiryLoad(apiUrl);
    api.resetPeakRss();
    let busy = true;
    let uploadedMeanwhile = 0;
    const uploaders = Array.from({ length: PARALLEL }, async () => {
      while (busy) {
        await upload(mediaUrl, auth, next());
        uploadedMeanwhile += 1;
      }
    });
    // The uploads under way first: the form is measured beside them, not before.
    await new Promise((done) => setTimeout(done, 1000));
    const loaded = await enquiryLoad(apiUrl);
    busy = false;
    await Promise.all(uploaders);
    const peakRss = api.peakRssMb();

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
        ['enquiry submit p99, alone', `${alone.p99} ms`, `p50 ${alone.p50} ms, ${alone.ok} sent`],
        [
          `enquiry submit p99, ${PARALLEL} uploads at once`,
          `${loaded.p99} ms, ${ratio.toFixed(2)}x`,
          check(
            'enquiry p99 beside uploads',
            ratio <= TARGETS.p99Ratio,
            `<= ${TARGETS.p99Ratio}x alone`,
          ),
        ],
        ['uploads done meanwhile', `${uploadedMeanwhile}`, `p50 of the enquiries ${loaded.p50} ms`],
        ['API peak RSS (VmHWM) during the uploads', `${peakRss.toFixed(0)} MB`, ''],
      ],
      missed,
    );
  } finally {
    await runCleanups(cleanups);
  }
}

runBench(main);
