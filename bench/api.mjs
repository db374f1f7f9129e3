// @ts-check
/**
 * `npm run bench:api`: load on the API next to the bare MongoDB driver doing
 * the same work on the same store in the same run (absolute numbers move with
 * the machine; the ratios are what to compare). Needs `npm run build` (the
 * API, the worker and the built site).
 *
 * 1. POST /api/contact, API and worker running, vs bare insertOne; then the
 *    API alone (worker stopped). With each, the CPU every process spent per
 *    enquiry (and per bare insert): the bench (autocannon), the API, the
 *    worker, the SMTP sink, the store and Redis.
 * 2. The dashboard over 20,000 enquiries and 20,000 subscribers (topped up in
 *    bulk, then counted by the worker's reconciliation, run here): stats,
 *    trend, audience, the contacts list's first page and a page past 10,000,
 *    two searches and the export's first byte, each request alone, the
 *    median of `--requests` (7); next to the bare driver's count and sorted
 *    page, what the API did before. And the phone: Chromium (Playwright's,
 *    /usr/bin/chromium or CHROMIUM_PATH) signs in at 375 x 812 on the built
 *    site, served as `npm start` serves it (vite preview, /api proxied to
 *    this API), `--sign-ins` (5) times, each timed from the click on "Sign
 *    In" to the stats cards' figures on screen (target 2 s).
 * 3. With `--parts`: where the time of POST /api/contact goes, each part
 *    alone at the same concurrency (rate limiter, enqueue, mongoose insert),
 *    and the store calls of the worker and the outbox relay.
 *
 * 4. With `--scale N` (N > 1): the dashboard again over N times as many
 *    enquiries and subscribers (the sign-ins too), and a cost curve of both
 *    sizes: the reconciliation and the whole export per row (time and CPU of
 *    the API, the bench and the store), the API's peak memory during the
 *    export.
 * 5. With `--scale N`, last: the submit burst again, the worker mailing,
 *    beside those N x 20,000 enquiries, against the bare insertOne into a
 *    collection with the contacts' indexes filled to as many documents; a
 *    table gives both sizes with the target (0.5x, p99 under 250 ms).
 *
 *   npm run bench:api [-- --duration 10 --connections 50 --requests 7 --sign-ins 5 --parts --profile DIR --scale 10]
 * Uses MONGODB_URI / REDIS_URL when set (use throw-away ones), else starts both.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createRequire } from 'node:module';
import autocannon from 'autocannon';
import { SMTPServer } from 'smtp-server';
import { startServices } from '../scripts/lib/services.mjs';
import { cpuSecondsOf, freePort, rssMbOf } from './lib/processes.mjs';
import { apiUrlOf, benchAppEnv, signIn, startApi, startWorker } from './lib/stack-processes.mjs';
import { commandsPer, commandsSince, storeCommands } from './lib/store-commands.mjs';
import { openSite } from './lib/dashboard-sign-in.mjs';

const root = resolve(import.meta.dirname, '..');
const require = createRequire(join(root, 'backend', 'package.json'));
/** @type {typeof import('@agency/contracts')} */
const { API_ROUTES } = require('@agency/contracts');
const { values: args } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '50' },
    'part-duration': { type: 'string', default: '5' },
    requests: { type: 'string', default: '7' },
    // Sign-ins at 375 px timed to the dashboard's figures, at each size; the median is compared.
    'sign-ins': { type: 'string', default: '5' },
    parts: { type: 'boolean', default: false },
    // The dashboard's part again at this many times 20,000 enquiries and subscribers.
    scale: { type: 'string', default: '1' },
    // Writes a V8 CPU profile of the API and of the worker into this folder.
    profile: { type: 'string' },
    // Internal: run only the SMTP sink, on this port (see startSmtpSink).
    'smtp-sink-port': { type: 'string' },
  },
});
// The shared process helper writes each process's CPU profile into this folder.
if (args.profile) process.env.BENCH_CPU_PROF_DIR = resolve(args.profile);

const DURATION = Number(args.duration);
const CONNECTIONS = Number(args.connections);
const PART_DURATION = Number(args['part-duration']);
/** Each dashboard request is timed alone, this many times; the median is compared. */
const REQUESTS = Number(args.requests);
const SIGN_INS = Number(args['sign-ins']);
/** The 375 px dashboard shows its figures within this long of the sign-in (ms). */
const SIGN_IN_TARGET_MS = 2000;
/** The enquiry submit's targets: its rate over the bare insertOne's, and its p99 (ms). */
const SUBMIT_TARGET = { ratio: 0.5, p99: 250 };
/** The dashboard's store at 1x; `--scale` measures it again at that many times. */
const STORED_CONTACTS = 20_000;
const STORED_SUBSCRIBERS = 20_000;
const SCALE = Number(args.scale);
if (!Number.isInteger(SCALE) || SCALE < 1) {
  console.error('--scale takes a whole number from 1');
  process.exit(1);
}

const enquiry = {
  firstName: 'Amira',
  lastName: 'Ben Salah',
  email: 'amira@example.tn',
  phone: '+216 20 123 456',
  service: 'web-design',
  message: 'We need a new website for our bakery chain in Sfax and Sousse.',
};

for (const file of ['backend/dist/server.js', 'worker/dist/index.js', 'frontend/dist/index.html']) {
  if (!existsSync(join(root, file))) {
    console.error(`${file} is missing: run npm run build first`);
    process.exit(1);
  }
}

/**
 * An SMTP server that accepts and drops every message, so the worker's sends
 * succeed. It runs in a process of its own, as a mail server would: in this
 * process it would take event-loop time from autocannon, the load generator.
 */
async function startSmtpSink() {
  const port = await freePort();
  const child = spawn(process.execPath, [import.meta.filename, '--smtp-sink-port', String(port)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise((listening, failed) => {
    child.once('exit', (code) => failed(new Error(`the SMTP sink exited ${code}`)));
    child.stdout.once('data', () => listening(undefined));
  });
  return {
    url: `smtp://127.0.0.1:${port}`,
    cpuSeconds: () => cpuSecondsOf(child.pid),
    close: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((done) => child.once('exit', done));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** The sink's own process: listens on `port`, says so on stdout, drops every message. */
async function runSmtpSink(/** @type {number} */ port) {
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      stream.on('end', () => callback());
      stream.resume();
    },
  });
  await new Promise((done) => server.listen(port, '127.0.0.1', () => done(undefined)));
  process.stdout.write('listening\n');
  process.once('SIGTERM', () => server.close(() => process.exit(0)));
}

/** Waits (up to 3 minutes) until the enquiry notification queue is empty. */
async function waitForDrain(env) {
  const { Queue } = require('bullmq');
  const { Redis } = require('ioredis');
  const connection = new Redis(env.REDIS_URL, { maxRetriesPerRequest: null });
  const queue = new Queue('contact-mail', { connection, prefix: env.QUEUE_PREFIX });
  try {
    for (let attempt = 0; attempt < 360; attempt += 1) {
      const counts = await queue.getJobCounts('waiting', 'active', 'delayed');
      if (counts.waiting + counts.active + counts.delayed === 0) return;
      await new Promise((done) => setTimeout(done, 500));
    }
    console.warn('the worker did not drain its queue within 3 minutes; measuring anyway');
  } finally {
    await queue.close();
    connection.disconnect();
  }
}

/**
 * Starts a worker and resolves once the recount a worker starts with (its
 * scheduler runs one at once) is done, or when none came within 20 s: at
 * 200,000 enquiries that pass takes a minute of the store's time, which
 * would weigh on the loops measured next.
 * @param {NodeJS.ProcessEnv} env
 */
async function startSettledWorker(env) {
  const { Queue } = require('bullmq');
  const { Redis } = require('ioredis');
  const connection = new Redis(env.REDIS_URL, { maxRetriesPerRequest: null });
  const queue = new Queue('stats-reconcile', { connection, prefix: env.QUEUE_PREFIX });
  try {
    const before = await queue.getJobCounts('completed', 'failed');
    const worker = startWorker('worker', env);
    const started = performance.now();
    while (performance.now() - started < 300_000) {
      await new Promise((done) => setTimeout(done, 500));
      const now = await queue.getJobCounts('completed', 'failed', 'active', 'waiting');
      const passEnded =
        (now.completed ?? 0) + (now.failed ?? 0) > (before.completed ?? 0) + (before.failed ?? 0);
      const noPass = !now.active && !now.waiting && performance.now() - started > 20_000;
      if (passEnded || noPass) return worker;
    }
    console.warn("the restarted worker's recount did not end within 5 minutes; measuring anyway");
    return worker;
  } finally {
    await queue.close();
    connection.disconnect();
  }
}

/** @param {import('autocannon').Options} options */
async function cannon(options) {
  const result = await autocannon({ connections: CONNECTIONS, duration: DURATION, ...options });
  const ok = result['2xx'];
  const failures = result.non2xx + result.errors + result.timeouts;
  return {
    ok,
    rate: ok / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    note: failures > 0 ? `${failures} non-2xx/errors` : '',
  };
}

/**
 * CPU seconds of each process of the burst so far: the bench's own (where
 * autocannon runs), the API, the worker, the SMTP sink and each service
 * started here (the store, Redis).
 * @param {{ api: { cpuSeconds(): number }, worker: { cpuSeconds(): number }, sink: { cpuSeconds(): number }, services: { started: { name: string, pid: number }[] } }} processes
 * @returns {[string, number][]}
 */
function cpuOfBurst({ api, worker, sink, services }) {
  const { user, system } = process.cpuUsage();
  return [
    ['bench (autocannon)', (user + system) / 1e6],
    ['API', api.cpuSeconds()],
    ['worker', worker.cpuSeconds()],
    ['SMTP sink', sink.cpuSeconds()],
    ...services.started.map(
      ({ name, pid }) => /** @type {[string, number]} */ ([name, cpuSecondsOf(pid)]),
    ),
  ];
}

/**
 * Where the CPU of a burst went, per enquiry, from two `cpuOfBurst` readings.
 * @param {[string, number][]} before @param {[string, number][]} after @param {number} enquiries
 */
function cpuPerEnquiry(before, after, enquiries) {
  return after
    .map(([name, seconds], index) => {
      const spent = seconds - (before[index]?.[1] ?? 0);
      return `${name} ${((spent * 1e6) / Math.max(enquiries, 1)).toFixed(0)} µs`;
    })
    .join(', ');
}

/**
 * The bare `insertOne` loop into `bare`, and the CPU each process spent per insert meanwhile.
 * @param {{ insertOne(document: object): Promise<unknown> }} bare
 * @param {Parameters<typeof cpuOfBurst>[0]} processes
 */
async function bareInsertsWithCpu(bare, processes) {
  const before = cpuOfBurst(processes);
  const bareInsert = await loop(() => bare.insertOne(bareDocument()));
  return { bareInsert, bareCpu: cpuPerEnquiry(before, cpuOfBurst(processes), bareInsert.count) };
}

/** One burst of enquiries, all alike, at the API's form endpoint. @param {string} apiUrl */
function submitBurst(apiUrl) {
  return cannon({
    url: `${apiUrl}${API_ROUTES.contactForm}`,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(enquiry),
  });
}

/**
 * The submit's rate over the bare insert's, and whether both targets are met.
 * @param {{ rate: number, p99: number }} submit @param {{ rate: number }} bare
 */
function submitVerdict(submit, bare) {
  const ratio = submit.rate / bare.rate;
  const met = ratio >= SUBMIT_TARGET.ratio && submit.p99 < SUBMIT_TARGET.p99;
  return `${ratio.toFixed(2)}x the bare rate: ${met ? 'met' : 'MISSED'}`;
}

/**
 * Runs `task` in `CONNECTIONS` concurrent loops for `seconds`, like autocannon
 * does for HTTP, and reports the same figures.
 * @param {() => Promise<unknown>} task @param {number} seconds
 */
async function loop(task, seconds = DURATION, connections = CONNECTIONS) {
  const latencies = [];
  const deadline = performance.now() + seconds * 1000;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < deadline) {
        const begin = performance.now();
        await task();
        latencies.push(performance.now() - begin);
      }
    }),
  );
  return {
    ...summary(latencies, latencies.length / ((performance.now() - started) / 1000)),
    count: latencies.length,
  };
}

/**
 * The rate and the 50th and 99th percentiles of some latencies (ms).
 * @param {number[]} latencies @param {number} rate
 */
function summary(latencies, rate) {
  const sorted = [...latencies].sort((a, b) => a - b);
  const at = (/** @type {number} */ q) =>
    sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  return { rate, p50: at(0.5), p99: at(0.99), note: '' };
}

/**
 * Runs `task` `times` times, one after another.
 * @param {number} times @param {() => Promise<unknown>} task
 */
async function repeat(times, task) {
  const latencies = [];
  for (let run = 0; run < times; run += 1) {
    const begin = performance.now();
    await task();
    latencies.push(performance.now() - begin);
  }
  const result = summary(latencies, 0);
  return { ...result, rate: 1000 / result.p50 };
}

/**
 * A collection with the indexes of the API's contacts collection.
 * @param {any} db @param {string} name
 */
async function collectionLikeContacts(db, name) {
  const collection = db.collection(name);
  const indexes = await db
    .collection('contacts')
    .indexes()
    .catch(() => []);
  for (const index of indexes) {
    if (index.name !== '_id_') await collection.createIndex(index.key, { name: index.name });
  }
  return collection;
}

/** One timing of `task`, in ms, as the median of `runs`. @param {() => Promise<unknown>} task */
async function median(task, runs = 5) {
  const times = [];
  for (let run = 0; run < runs; run += 1) {
    const begin = performance.now();
    await task();
    times.push(performance.now() - begin);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)] ?? 0;
}

/** What the bare loop inserts: the enquiry as the API stores it, without what the API adds. */
const bareDocument = () => ({
  ...enquiry,
  locale: 'en',
  status: 'new',
  createdAt: new Date(),
  updatedAt: new Date(),
});

const FIRST_NAMES = [
  'Amira',
  'Sami',
  'Nour',
  'Yassine',
  'Ines',
  'Karim',
  'Sarra',
  'Omar',
  'Lina',
  'Rim',
];
const LAST_NAMES = [
  'Ben Salah',
  'Trabelsi',
  'Gharbi',
  'Jlassi',
  'Hamdi',
  'Bouzid',
  'Mejri',
  'Ayari',
];
/** A common search: the start of one of the eight last names, about an eighth of the list. */
const COMMON_PREFIX = 'tra';

/**
 * The dashboard's data: exactly `storedContacts` enquiries (those of the
 * submit bursts, all alike, make way for varied ones: names, services,
 * statuses, two years of dates) and `storedSubscribers` subscribers, half of
 * them addresses that also enquired. Written in bulk behind the API's back,
 * as an import would be: the reconciliation then counts them.
 * @param {any} db @param {{ storedContacts: number, storedSubscribers: number }} size
 */
async function seedDashboard(db, { storedContacts, storedSubscribers }) {
  const { withSearchKeys } = require(join(root, 'platform/dist/index.js'));
  const { CONTACT_STATUSES, SERVICE_SLUGS } = require('@agency/contracts');
  const contacts = db.collection('contacts');
  const subscribers = db.collection('subscribers');
  await contacts.deleteMany({});
  const now = Date.now();
  const twoYears = 730 * 86_400_000;
  const person = (/** @type {number} */ n) => {
    const firstName = FIRST_NAMES[n % FIRST_NAMES.length] ?? 'Amira';
    const lastName = LAST_NAMES[Math.floor(n / FIRST_NAMES.length) % LAST_NAMES.length] ?? 'Hamdi';
    const email = `${firstName}.${lastName.replace(/ /g, '')}${n}@example.tn`.toLowerCase();
    return { firstName, lastName, email };
  };
  for (let offset = 0; offset < storedContacts; offset += 2000) {
    const batch = Array.from({ length: Math.min(2000, storedContacts - offset) }, (_, index) => {
      const n = offset + index;
      const createdAt = new Date(
        now - Math.floor(((n * 7919) % storedContacts) * (twoYears / storedContacts)),
      );
      return withSearchKeys({
        ...person(n),
        phone: '+216 20 123 456',
        service: SERVICE_SLUGS[n % SERVICE_SLUGS.length],
        message: 'We would like a quote for the coming season, please.',
        locale: 'fr',
        status: CONTACT_STATUSES[(n * 31) % CONTACT_STATUSES.length],
        createdAt,
        updatedAt: createdAt,
      });
    });
    await contacts.insertMany(batch, { ordered: false });
  }
  const present = new Set(
    (await subscribers.find({}, { projection: { email: 1 } }).toArray()).map((s) => s.email),
  );
  const wanted = Array.from({ length: storedSubscribers }, (_, n) =>
    // Every other subscriber is an address that enquired too.
    n % 2 === 0 ? person(n).email : `reader${n}@example.tn`,
  ).filter((email) => !present.has(email));
  for (let offset = 0; offset < wanted.length; offset += 2000) {
    await subscribers.insertMany(
      wanted.slice(offset, offset + 2000).map((email, index) => ({
        email,
        status: ['confirmed', 'confirmed', 'confirmed', 'pending', 'unsubscribed'][index % 5],
        locale: 'fr',
        confirmationRequests: 1,
        createdAt: new Date(),
        updatedAt: new Date(),
      })),
      { ordered: false },
    );
  }
  // Enquiries of the last burst still in flight when it ended may land after the clean-up.
  await contacts.deleteMany({ email: enquiry.email });
  const rare = person(12_345).email.split('@')[0] ?? '';
  return {
    contacts: await contacts.countDocuments({}),
    subscribers: await subscribers.countDocuments({}),
    commonMatches: await contacts.countDocuments({ searchTerms: { $regex: `^${COMMON_PREFIX}` } }),
    rarePrefix: rare,
  };
}

/**
 * The worker's reconciliation, run once in this process on the bench's
 * store and Redis: it counts what the bulk writes left uncounted and builds
 * the contacts index of the embedded store.
 * @param {NodeJS.ProcessEnv} env
 */
async function reconcileInProcess(env) {
  const { reconcileStats, createLogger } = require(join(root, 'platform/dist/index.js'));
  const { Redis } = require('ioredis');
  const redis = new Redis(env.REDIS_URL, { maxRetriesPerRequest: null });
  try {
    return await reconcileStats({
      redis,
      prefix: env.QUEUE_PREFIX,
      timeZone: env.AGENCY_TIME_ZONE || 'Africa/Tunis',
      settleMs: 0,
      logger: createLogger('bench', 'warn'),
    });
  } finally {
    redis.disconnect();
  }
}

/**
 * Signed-in calls to the admin API, each awaited to its last byte.
 * @param {string} apiUrl @param {string} authorization the header `signIn` gave
 */
function dashboardClient(apiUrl, authorization) {
  const headers = { authorization };
  /** @param {string} path */
  async function json(path) {
    const response = await fetch(`${apiUrl}${path}`, { headers });
    if (!response.ok) throw new Error(`${path} answered ${response.status}`);
    return /** @type {any} */ (await response.json());
  }
  return {
    json,
    /**
     * The position past `rows` rows of the contacts list, reached as a user
     * would: page after page (of 100), following `next`.
     * @param {number} rows
     */
    async positionPast(rows) {
      let after = '';
      let seen = 0;
      let pages = 0;
      const started = performance.now();
      while (seen < rows) {
        const query = after ? `&after=${encodeURIComponent(after)}` : '';
        const page = await json(`${API_ROUTES.contacts}?pageSize=100${query}`);
        seen += page.items.length;
        pages += 1;
        if (!page.next) throw new Error(`the list ended at row ${seen}`);
        after = page.next;
      }
      return {
        after,
        rows: seen,
        pages,
        millisecondsPerPage: (performance.now() - started) / pages,
      };
    },
    /** When a download's first bytes came (in ms); the rest is not read. @param {string} path */
    async firstByte(path) {
      const started = performance.now();
      const response = await fetch(`${apiUrl}${path}`, { headers });
      const reader = response.body?.getReader();
      if (!response.ok || !reader) throw new Error(`${path} answered ${response.status}`);
      await reader.read();
      const firstByteMs = performance.now() - started;
      await reader.cancel();
      return firstByteMs;
    },
    /**
     * A download read to its end: when its first bytes came, when its last
     * did, and how many lines it had; if the API cut it off, why, so that
     * the rest of a long run is still measured and printed.
     * @param {string} path
     */
    async download(path) {
      const started = performance.now();
      const response = await fetch(`${apiUrl}${path}`, { headers });
      const reader = response.body?.getReader();
      if (!response.ok || !reader) throw new Error(`${path} answered ${response.status}`);
      let firstByteMs = 0;
      let lines = 0;
      let cutOff = '';
      try {
        for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
          if (!firstByteMs) firstByteMs = performance.now() - started;
          for (const byte of chunk.value) if (byte === 10) lines += 1;
        }
      } catch (error) {
        const reason = /** @type {{ message?: string, cause?: { message?: string } }} */ (error);
        cutOff = reason.cause?.message ?? reason.message ?? String(error);
      }
      // The header line is not a row; a message may span lines, so this is about the rows.
      return { firstByteMs, totalMs: performance.now() - started, rows: lines - 1, cutOff };
    },
  };
}

/** @param {{ name: string, rate?: number, p50: number, p99: number, note?: string }[]} rows */
function printTable(title, rows) {
  console.log(`\n${title}`);
  console.log(
    `${'case'.padEnd(58)}${'req/s'.padStart(9)}${'p50 ms'.padStart(9)}${'p99 ms'.padStart(9)}  note`,
  );
  for (const row of rows) {
    const rate = row.rate === undefined ? '' : row.rate.toFixed(0);
    console.log(
      `${row.name.padEnd(58)}${rate.padStart(9)}${row.p50.toFixed(1).padStart(9)}${row.p99.toFixed(1).padStart(9)}  ${row.note ?? ''}`,
    );
  }
}

/** A line on stderr while a long run goes on: where it is, and since when. */
const benchStarted = performance.now();
/** @param {string} step */
function progress(step) {
  const seconds = ((performance.now() - benchStarted) / 1000).toFixed(0);
  process.stderr.write(`[bench:api ${seconds} s] ${step}\n`);
}

/**
 * The dashboard over `scale` times 20,000 enquiries and subscribers: seeded
 * in bulk, counted by the reconciliation (timed, with its CPU and the
 * store's), then each request alone, the median of REQUESTS; the export's
 * first byte REQUESTS times and the whole export once, with the CPU it
 * took and the API's peak memory meanwhile; and SIGN_INS sign-ins at 375 px
 * in Chromium, each timed to the stats cards' figures on screen.
 * @param {{ db: any, env: NodeJS.ProcessEnv, apiUrl: string, api: ReturnType<typeof startApi>, services: { started: { name: string, pid: number }[] }, site: Awaited<ReturnType<typeof openSite>>, scale: number }} deps
 */
async function measureDashboard({ db, env, apiUrl, api, services, site, scale }) {
  const contacts = db.collection('contacts');
  const storeCpu = () => services.started.reduce((sum, { pid }) => sum + cpuSecondsOf(pid), 0);
  const ownCpu = () => {
    const { user, system } = process.cpuUsage();
    return (user + system) / 1e6;
  };
  progress(`${scale}x: seeding ${(STORED_CONTACTS * scale).toLocaleString('en')} enquiries`);
  const seeded = await seedDashboard(db, {
    storedContacts: STORED_CONTACTS * scale,
    storedSubscribers: STORED_SUBSCRIBERS * scale,
  });
  progress(`${scale}x: reconciling`);
  const cpuBeforeReconcile = { own: ownCpu(), store: storeCpu() };
  const reconcile = await reconcileInProcess(env);
  const reconcileCpu = {
    bench: ownCpu() - cpuBeforeReconcile.own,
    store: storeCpu() - cpuBeforeReconcile.store,
  };
  const { authorization } = await signIn(apiUrl);
  const dashboard = dashboardClient(apiUrl, authorization);
  const stats = /** @type {{ totalContacts: number }} */ (await dashboard.json(API_ROUTES.stats));
  if (stats.totalContacts !== seeded.contacts) {
    throw new Error(
      `stats say ${stats.totalContacts} enquiries, the store holds ${seeded.contacts}`,
    );
  }
  progress(`${scale}x: ${SIGN_INS} sign-ins at 375 px in Chromium`);
  const signIns = await site.timeSignIns({ runs: SIGN_INS, expectedTotal: seeded.contacts });
  progress(`${scale}x: walking to row 10,000`);
  const deep = await dashboard.positionPast(10_000);
  // What the list did before, at 1x only: a sorted page of the whole
  // collection makes FerretDB sort it in memory, past 8 GB at 200,000.
  progress(`${scale}x: the bare driver's count and sorted page`);
  const bareCountAndPage =
    scale === 1
      ? await repeat(REQUESTS, () =>
          Promise.all([
            contacts.find({}).sort({ createdAt: -1, _id: -1 }).limit(25).toArray(),
            contacts.countDocuments({}),
          ]),
        )
      : null;
  /** @type {[string, string, number][]} the request, its path, its target (ms) */
  const requests = [
    [`GET ${API_ROUTES.stats}`, API_ROUTES.stats, 150],
    [`GET ${API_ROUTES.statsEnquiries}?days=30`, `${API_ROUTES.statsEnquiries}?days=30`, 150],
    [`GET ${API_ROUTES.campaignAudience}`, API_ROUTES.campaignAudience, 150],
    [
      `GET ${API_ROUTES.contacts}, page 1 (25, newest first, with total)`,
      `${API_ROUTES.contacts}?pageSize=25`,
      250,
    ],
    [
      `GET ${API_ROUTES.contacts}, the page after row ${deep.rows.toLocaleString('en')}`,
      `${API_ROUTES.contacts}?pageSize=25&after=${encodeURIComponent(deep.after)}`,
      250,
    ],
    [
      `GET ${API_ROUTES.contacts}?search=${COMMON_PREFIX} (${seeded.commonMatches.toLocaleString('en')} match)`,
      `${API_ROUTES.contacts}?pageSize=25&search=${COMMON_PREFIX}`,
      400,
    ],
    [
      `GET ${API_ROUTES.contacts}?search=${seeded.rarePrefix} (1 match)`,
      `${API_ROUTES.contacts}?pageSize=25&search=${seeded.rarePrefix}`,
      400,
    ],
  ];
  const rows = [];
  for (const [name, path, target] of requests) {
    progress(`${scale}x: ${name}`);
    rows.push({ name, ...(await repeat(REQUESTS, () => dashboard.json(path))), target });
  }
  const firstBytes = [];
  for (let run = 0; run < REQUESTS; run += 1) {
    firstBytes.push(await dashboard.firstByte(API_ROUTES.contactsExport));
  }
  rows.push({
    name: 'GET /api/admin/contacts/export, first byte',
    ...summary(firstBytes, 0),
    target: 300,
  });
  rows.push({
    name: `375 px: sign-in to the stats cards' figures on screen (Chromium, ${SIGN_INS} sign-ins)`,
    ...summary(signIns, 0),
    target: SIGN_IN_TARGET_MS,
  });
  // The whole export once, read to its end as a download would be.
  progress(`${scale}x: the whole export`);
  api.resetPeakRss();
  const apiRssBeforeMb = rssMbOf(api.pid);
  const cpuBeforeExport = { api: api.cpuSeconds(), store: storeCpu() };
  const whole = await dashboard.download(API_ROUTES.contactsExport);
  const exportCpu = api.cpuSeconds() - cpuBeforeExport.api + (storeCpu() - cpuBeforeExport.store);
  return {
    scale,
    seeded,
    rows,
    bareCountAndPage,
    deep,
    reconcile: { ...reconcile, cpu: reconcileCpu },
    whole: { ...whole, cpuSeconds: exportCpu, apiRssBeforeMb, apiPeakRssMb: api.peakRssMb() },
  };
}

/** @param {Awaited<ReturnType<typeof measureDashboard>>} measured */
function printDashboard({ scale, seeded, rows, bareCountAndPage, deep, reconcile, whole }) {
  console.log(
    `\nThe dashboard${scale > 1 ? ` at ${scale}x` : ''}: ${seeded.contacts.toLocaleString('en')} enquiries, ${seeded.subscribers.toLocaleString('en')} subscribers, each request alone, median of ${REQUESTS} (ms)\n`,
  );
  console.log('| request | median ms | slowest ms | target | |');
  console.log('| --- | ---: | ---: | ---: | --- |');
  for (const row of rows) {
    console.log(
      `| ${row.name} | ${row.p50.toFixed(0)} | ${row.p99.toFixed(0)} | ${row.target} | ${row.p50 <= row.target ? 'met' : '**missed**'} |`,
    );
  }
  if (bareCountAndPage) {
    console.log(
      `| bare driver: countDocuments + sorted page 1, what the list did before | ${bareCountAndPage.p50.toFixed(0)} | ${bareCountAndPage.p99.toFixed(0)} | | |`,
    );
  }
  console.log(
    `\nThe whole export (${whole.rows.toLocaleString('en')} rows${whole.cutOff ? `, CUT OFF by the API: ${whole.cutOff}` : ''}): ${(whole.totalMs / 1000).toFixed(1)} s, the API's peak RSS meanwhile ${whole.apiPeakRssMb.toFixed(0)} MB (${whole.apiRssBeforeMb.toFixed(0)} MB before).`,
  );
  console.log(
    `The reconciliation that counted them (the worker's job, run here): ${(reconcile.durationMs / 1000).toFixed(1)} s, ${reconcile.index ? `contacts index: ${reconcile.index.added.toLocaleString('en')} entries added` : 'no contacts index (not the embedded store)'}, campaign audience addresses: ${reconcile.contactAddresses.added.toLocaleString('en')} added; walking ${deep.pages} pages of 100 to row ${deep.rows.toLocaleString('en')}: ${deep.millisecondsPerPage.toFixed(0)} ms a page.`,
  );
}

/**
 * How the cost grows from 1x to the scale: per row, time and CPU of the
 * reconciliation (the bench, which runs it, and the store) and of the whole
 * export (the API and the store), the API's peak memory during the export,
 * and each dashboard request's median.
 * @param {Awaited<ReturnType<typeof measureDashboard>>} small
 * @param {Awaited<ReturnType<typeof measureDashboard>>} large
 */
function printCostCurve(small, large) {
  const rowsOf = (/** @type {typeof small} */ one) => one.seeded.contacts + one.seeded.subscribers;
  const micros = (/** @type {number} */ seconds, /** @type {number} */ items) =>
    (seconds * 1e6) / Math.max(items, 1);
  /** @type {[string, (one: typeof small) => number, string][]} */
  const figures = [
    [
      'reconciliation, time per enquiry or subscriber',
      (one) => micros(one.reconcile.durationMs / 1000, rowsOf(one)),
      'µs',
    ],
    [
      'reconciliation, CPU per enquiry or subscriber, its own (run in the bench)',
      (one) => micros(one.reconcile.cpu.bench, rowsOf(one)),
      'µs',
    ],
    [
      'reconciliation, CPU per enquiry or subscriber, the store and Redis',
      (one) => micros(one.reconcile.cpu.store, rowsOf(one)),
      'µs',
    ],
    ['whole export, time per row', (one) => micros(one.whole.totalMs / 1000, one.whole.rows), 'µs'],
    [
      'whole export, CPU per row (API + store)',
      (one) => micros(one.whole.cpuSeconds, one.whole.rows),
      'µs',
    ],
    ["whole export, the API's RSS before it", (one) => one.whole.apiRssBeforeMb, 'MB'],
    ["whole export, the API's peak RSS", (one) => one.whole.apiPeakRssMb, 'MB'],
    ...small.rows.map(
      (row, index) =>
        /** @type {[string, (one: typeof small) => number, string]} */ ([
          row.name.replace(/ \([\d,]+ match\)$/, ''),
          (one) => one.rows[index]?.p50 ?? 0,
          'ms',
        ]),
    ),
  ];
  console.log(
    `\nCost curve, 1x and ${large.scale}x (growth: the ${large.scale}x figure over the 1x one)\n`,
  );
  console.log(
    `| figure | 1x (${small.seeded.contacts.toLocaleString('en')}) | ${large.scale}x (${large.seeded.contacts.toLocaleString('en')}) | growth |`,
  );
  console.log('| --- | ---: | ---: | ---: |');
  for (const [name, figure, unit] of figures) {
    const [a, b] = [figure(small), figure(large)];
    console.log(
      `| ${name} | ${a.toFixed(0)} ${unit} | ${b.toFixed(0)} ${unit} | ${(b / Math.max(a, 1e-9)).toFixed(2)}x |`,
    );
  }
}

/**
 * The submit burst again beside `storedContacts` enquiries (and as many
 * audience addresses, which the reconciliation wrote), the worker mailing,
 * next to the bare insertOne loop into a collection with the contacts'
 * indexes filled to the same size first: the store's index trees are then
 * as deep for both.
 * @param {{ db: any, env: NodeJS.ProcessEnv, apiUrl: string, storedContacts: number,
 *   api: { cpuSeconds(): number }, sink: { cpuSeconds(): number },
 *   services: { started: { name: string, pid: number }[] } }} deps
 */
async function measureSubmitBeside({ db, env, apiUrl, storedContacts, api, sink, services }) {
  progress(`filling the bare collection to ${storedContacts.toLocaleString('en')} documents`);
  await db
    .collection('bench_bare_contacts')
    .drop()
    .catch(() => undefined);
  const bare = await collectionLikeContacts(db, 'bench_bare_contacts');
  for (let offset = 0; offset < storedContacts; offset += 2000) {
    const size = Math.min(2000, storedContacts - offset);
    await bare.insertMany(
      Array.from({ length: size }, () => bareDocument()),
      { ordered: false },
    );
  }
  progress('restarting the worker, and waiting for the recount it starts with');
  const worker = await startSettledWorker(env);
  try {
    // And for the mails the API alone queued at 1x while the worker was stopped.
    progress('waiting for the worker to mail what was queued while it was stopped');
    await waitForDrain(env);
    progress(`the bare insertOne loop beside ${storedContacts.toLocaleString('en')} documents`);
    const { bareInsert, bareCpu } = await bareInsertsWithCpu(bare, { api, worker, sink, services });
    progress(`the submit burst beside ${storedContacts.toLocaleString('en')} enquiries`);
    const cpuBefore = cpuOfBurst({ api, worker, sink, services });
    const submit = await submitBurst(apiUrl);
    const cpu = cpuPerEnquiry(cpuBefore, cpuOfBurst({ api, worker, sink, services }), submit.ok);
    await waitForDrain(env);
    return { storedContacts, bareInsert, submit, cpu, bareCpu };
  } finally {
    await worker.stop();
  }
}

/**
 * The submit on the empty store and beside the scale's enquiries, each next
 * to the bare insertOne on the same store at that moment, with the targets.
 * @param {{ bareInsert: { rate: number, p50: number, p99: number }, submit: { rate: number, p50: number, p99: number, note: string } }} empty
 * @param {Awaited<ReturnType<typeof measureSubmitBeside>>} beside
 */
function printSubmitCurve(empty, beside) {
  const stored = beside.storedContacts.toLocaleString('en');
  console.log(
    `\nEnquiry submit, API + worker, on the empty store and beside ${stored} enquiries (target: at least ${SUBMIT_TARGET.ratio}x the bare insert rate, p99 under ${SUBMIT_TARGET.p99} ms)\n`,
  );
  console.log(
    '| store | bare insertOne /s (p99 ms) | POST /api/contact /s (p50, p99 ms) | ratio | |',
  );
  console.log('| --- | ---: | ---: | ---: | --- |');
  for (const [name, { bareInsert, submit }] of /** @type {const} */ ([
    ['empty', empty],
    [`${stored} enquiries`, beside],
  ])) {
    console.log(
      `| ${name} | ${bareInsert.rate.toFixed(0)} (${bareInsert.p99.toFixed(0)}) | ${submit.rate.toFixed(0)} (${submit.p50.toFixed(0)}, ${submit.p99.toFixed(0)}) | ${(submit.rate / bareInsert.rate).toFixed(2)}x | ${submitVerdict(submit, bareInsert).split(': ')[1]} ${submit.note} |`,
    );
  }
  console.log(`\nCPU beside ${stored} enquiries, per insert of the bare loop: ${beside.bareCpu}`);
  console.log(`CPU per enquiry during the burst beside ${stored} enquiries: ${beside.cpu}`);
}

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'agency-bench-'));
  const cleanups = [() => rmSync(dataDir, { recursive: true, force: true })];
  const cleanup = async () => {
    for (const step of cleanups.splice(0).reverse()) await step();
  };
  try {
    const services = await startServices({ dataDir, mailCatcher: false });
    const { withDatabaseName } = await import('@agency/contracts');
    cleanups.push(services.stop);
    const mongodbUri = withDatabaseName(services.mongodbUri, `bench_${Date.now()}`);
    const sink = await startSmtpSink();
    cleanups.push(sink.close);
    const env = benchAppEnv(
      {
        dataDir,
        mongodbUri,
        redisUrl: services.redisUrl,
        queuePrefix: `bench${Date.now()}`,
        apiPort: await freePort(),
        smtpUrl: sink.url,
      },
      // The bench is one address sending thousands of enquiries.
      { CONTACT_RATE_LIMIT_MAX: '1000000' },
    );
    const apiUrl = apiUrlOf(env);

    const mongoose = require('mongoose');
    await mongoose.connect(mongodbUri);
    cleanups.push(() => mongoose.disconnect());
    const db = mongoose.connection.db;

    console.log(
      `autocannon and the bare loops: ${CONNECTIONS} connections, ${DURATION} s each; dashboard requests one at a time, median of ${REQUESTS}; loopback`,
    );

    // 1. The enquiry path with its worker.
    const api = startApi(env);
    cleanups.push(api.stop);
    await api.healthy();
    const worker = startWorker('worker', env);
    cleanups.push(worker.stop);
    const site = await openSite(apiUrl);
    cleanups.push(site.close);

    // The same indexes as the contacts collection: on this store every index
    // costs each insert, so "the same work" means the same indexes.
    const bare = await collectionLikeContacts(db, 'bench_bare_contacts');
    const { bareInsert, bareCpu } = await bareInsertsWithCpu(bare, { api, worker, sink, services });
    const commandsBefore = await storeCommands(db);
    const cpuBefore = cpuOfBurst({ api, worker, sink, services });
    const submit = await submitBurst(apiUrl);
    const cpuAfterBurst = cpuOfBurst({ api, worker, sink, services });
    const commandsDuringBurst = commandsSince(commandsBefore, await storeCommands(db));

    // The worker mails the burst (its writes would compete for the store), then stops.
    const drainStarted = performance.now();
    await waitForDrain(env);
    const drainSeconds = (performance.now() - drainStarted) / 1000;
    const cpuAfterDrain = cpuOfBurst({ api, worker, sink, services });
    const commandsToDrain = commandsSince(commandsBefore, await storeCommands(db));
    await worker.stop();
    const noWorker = await submitBurst(apiUrl);

    // 2. The dashboard over 20,000 enquiries and 20,000 subscribers (and 4. at --scale).
    const at1x = await measureDashboard({ db, env, apiUrl, api, services, site, scale: 1 });
    const atScale =
      SCALE > 1
        ? await measureDashboard({ db, env, apiUrl, api, services, site, scale: SCALE })
        : null;
    // 5. The submit again beside the scale's enquiries, once the dashboard is measured.
    const submitAtScale = atScale
      ? await measureSubmitBeside({
          db,
          env,
          apiUrl,
          storedContacts: atScale.seeded.contacts,
          api,
          sink,
          services,
        })
      : null;

    printTable('Enquiry submit (target: at least 0.5x the bare insert rate, p99 under 250 ms)', [
      { name: 'bare driver insertOne (same document, same store)', ...bareInsert },
      {
        name: 'POST /api/contact (API + worker)',
        ...submit,
        note: `${submitVerdict(submit, bareInsert)} ${submit.note}`,
      },
      {
        name: 'POST /api/contact, API alone (worker stopped)',
        ...noWorker,
        note: `${(noWorker.rate / bareInsert.rate).toFixed(2)}x the bare rate ${noWorker.note}`,
      },
    ]);
    printDashboard(at1x);
    if (atScale && submitAtScale) {
      printDashboard(atScale);
      printCostCurve(at1x, atScale);
      printSubmitCurve({ bareInsert, submit }, submitAtScale);
    }

    console.log(
      `\nStore commands per enquiry (API and worker, commands of a batch count once), ${submit.ok} enquiries:`,
    );
    console.log(`  during the ${DURATION} s burst: ${commandsPer(commandsDuringBurst, submit.ok)}`);
    console.log(
      `  until the worker drained its queue (${drainSeconds.toFixed(1)} s after the burst): ${commandsPer(commandsToDrain, submit.ok)}`,
    );
    console.log(
      `CPU per enquiry (2 cores give ${(2e6 / submit.rate).toFixed(0)} µs an enquiry at the burst's rate):`,
    );
    console.log(`  the bare insertOne loop, per insert: ${bareCpu}`);
    console.log(`  during the burst: ${cpuPerEnquiry(cpuBefore, cpuAfterBurst, submit.ok)}`);
    console.log(
      `  until the worker drained: ${cpuPerEnquiry(cpuBefore, cpuAfterDrain, submit.ok)}`,
    );
    if (!args.parts) return;

    // 3. Where the time of POST /api/contact goes.
    await api.stop();
    const contacts = db.collection('contacts');
    const parts = await measureParts({ env, db });
    const contactCount = await contacts.countDocuments();
    const owedMails = db.collection('owed_mails');
    const receipts = db.collection('mail_receipts');
    const [owedCount, receiptCount] = await Promise.all([
      owedMails.countDocuments(),
      receipts.countDocuments(),
    ]);
    const relayScan = await median(() =>
      owedMails
        .find({ createdAt: { $lte: new Date() } })
        .sort({ createdAt: 1 })
        .limit(500)
        .toArray(),
    );
    const one = await contacts.findOne({}, { sort: { _id: -1 } });
    const someReceipt = await receipts.findOne({});
    const workerFind = await median(() => contacts.findOne({ _id: one?._id }));
    const receiptFind = await median(() => receipts.findOne({ _id: someReceipt?._id }));
    let receiptSerial = 0;
    const receiptInsert = await median(() => {
      receiptSerial += 1;
      return receipts.insertOne({
        _id: `bench-receipt:${Date.now()}:${receiptSerial}`,
        mail: 'contact-notification',
        ref: 'bench',
        outcome: 'sent',
        at: new Date(),
      });
    });
    const outboxDelete = await median(async () => {
      const id = `bench-owed:${Date.now()}:${Math.random()}`;
      await owedMails.insertOne({ _id: id, job: 'contact-mail', createdAt: new Date() });
      await owedMails.deleteOne({ _id: id });
    });
    // What the worker did before the outbox: update the enquiry itself, twice per enquiry.
    const contactUpdate = await median(() =>
      contacts.updateOne({ _id: one?._id }, { $set: { benchTouchedAt: new Date() } }),
    );
    printTable('Where the time of POST /api/contact goes (each part alone, same concurrency)', [
      ...parts,
      {
        name: `outbox relay scan, ${owedCount} owed mails (one call)`,
        p50: relayScan,
        p99: relayScan,
      },
      {
        name: `worker: contact findById, ${contactCount} contacts (one call)`,
        p50: workerFind,
        p99: workerFind,
      },
      {
        name: `worker: receipt findById, ${receiptCount} receipts (one call)`,
        p50: receiptFind,
        p99: receiptFind,
      },
      { name: 'worker: receipt insertOne (one call)', p50: receiptInsert, p99: receiptInsert },
      {
        name: 'worker: outbox insert + deleteOne by _id (one call)',
        p50: outboxDelete,
        p99: outboxDelete,
      },
      {
        name: `before the outbox: contact updateOne by _id, ${contactCount} contacts`,
        p50: contactUpdate,
        p99: contactUpdate,
      },
    ]);
  } finally {
    await cleanup();
  }
}

/**
 * Each piece of the enquiry route in a Koa app of its own, under the same
 * load: the per-IP rate limiter (Redis), the enqueue (BullMQ), the insert
 * through mongoose, and all three.
 */
async function measureParts({ env, db }) {
  const Koa = require('koa');
  const { Redis } = require('ioredis');
  const { rateLimit } = require(join(root, 'backend/dist/middleware/rate-limit.js'));
  const { createMailQueues, enqueueContactMails } = require(
    join(root, 'platform/dist/queues/mail-queues.js'),
  );
  const { ContactModel } = require(join(root, 'platform/dist/contact/contact.model.js'));
  // The parts are the store's and Redis's costs alone, without the dashboard's figures.
  const { storeContact, UNWATCHED_CONTACTS } = require(join(root, 'platform/dist/index.js'));
  const redis = new Redis(env.REDIS_URL, { maxRetriesPerRequest: 1, enableOfflineQueue: false });
  await new Promise((done) => redis.once('ready', done));
  const queues = createMailQueues(redis, `${env.QUEUE_PREFIX}parts`);
  const logger = { warn: () => undefined };
  const limiter = rateLimit({
    redis,
    name: `${env.QUEUE_PREFIX}:parts`,
    max: 100_000_000,
    windowMs: 600_000,
  });
  let counter = 0;

  /** @param {string} name @param {(ctx: any) => Promise<void>} handler @param {any[]} [middleware] */
  async function measure(name, handler, middleware = []) {
    const app = new Koa();
    app.silent = true;
    app.use(async (ctx, next) => {
      ctx.state.log = logger;
      await next();
    });
    for (const mw of middleware) app.use(mw);
    app.use(async (ctx) => {
      await handler(ctx);
      ctx.status = 204;
    });
    return load(name, app, { url: '/', method: 'POST' });
  }

  /** Serves `app` on a free port and puts it under load. */
  async function load(name, app, request) {
    const port = await freePort();
    const server = app.listen(port, '127.0.0.1');
    try {
      const result = await cannon({
        ...request,
        url: `http://127.0.0.1:${port}${request.url}`,
        duration: PART_DURATION,
      });
      return { name, ...result };
    } finally {
      await new Promise((done) => server.close(done));
    }
  }

  /** The real API app, in this process, without the outbox relay's timer. */
  async function wholeApp() {
    const { createApp, loadApiConfig } = require(join(root, 'backend/dist/index.js'));
    const { createLogger } = require(join(root, 'platform/dist/index.js'));
    const config = loadApiConfig({ ...env, QUEUE_PREFIX: `${env.QUEUE_PREFIX}app` });
    const app = createApp({ config, logger: createLogger('bench', 'warn'), queues, redis });
    return load('the whole API app in-process, no relay, no worker', app, {
      url: API_ROUTES.contactForm,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(enquiry),
    });
  }

  try {
    const bare = await collectionLikeContacts(db, 'bench_bare_parts');
    return [
      await measure('Koa alone (empty handler)', async () => undefined),
      await measure('koa-ratelimit on Redis alone', async () => undefined, [limiter]),
      await measure('BullMQ enqueue alone (addBulk of one job)', async () => {
        counter += 1;
        await enqueueContactMails(queues, [{ contactId: `bench${counter}` }]);
      }),
      await measure('mongoose ContactModel.create alone', async () => {
        await ContactModel.create({ ...enquiry, locale: 'en' });
      }),
      await measure('storeContact alone (outbox entry, then the contact)', async () => {
        await storeContact(enquiry, 'en', UNWATCHED_CONTACTS);
      }),
      await measure('bare insertOne behind Koa', async () => {
        await bare.insertOne({ ...enquiry, createdAt: new Date() });
      }),
      await measure(
        'rate limit + storeContact + enqueue (the route, no validation)',
        async () => {
          const contact = await storeContact(enquiry, 'en', UNWATCHED_CONTACTS);
          await enqueueContactMails(queues, [{ contactId: contact.id, mail: contact.mail }]);
        },
        [limiter],
      ),
      await wholeApp(),
    ];
  } finally {
    await queues.contactMail.obliterate({ force: true }).catch(() => undefined);
    await queues.close();
    redis.disconnect();
  }
}

const run = args['smtp-sink-port'] ? runSmtpSink(Number(args['smtp-sink-port'])) : main();
run.catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
