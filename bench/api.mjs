// @ts-check
/**
 * `npm run bench:api`: load on the API next to the bare MongoDB driver doing
 * the same work on the same store in the same run (absolute numbers move with
 * the machine; the ratios are what to compare). Needs `npm run build`.
 *
 * 1. POST /api/contact, API and worker running, vs bare insertOne.
 * 2. GET /api/admin/contacts page 1 newest first with its total, 10,000
 *    contacts stored, vs the bare driver's find + count.
 * 3. Where the time of POST /api/contact goes: each part alone at the same
 *    concurrency (rate limiter, enqueue, mongoose insert), the API without
 *    its worker, and the store calls of the worker and the outbox relay.
 *
 *   npm run bench:api [-- --duration 10 --connections 50 --profile artifacts/profiles]
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
import { freePort, startNode } from './lib/processes.mjs';

const root = resolve(import.meta.dirname, '..');
const require = createRequire(join(root, 'backend', 'package.json'));
const { values: args } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '50' },
    'part-duration': { type: 'string', default: '5' },
    'page-requests': { type: 'string', default: '7' },
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
/**
 * The embedded store neither sorts nor counts with an index (about 700 ms
 * each over 10,000 documents) and serves them one after another, so 50
 * concurrent pages only queue behind each other for minutes. The page is
 * timed one request after another instead, this many times each (the
 * median is compared); production MongoDB uses indexes.
 */
const PAGE_REQUESTS = Number(args['page-requests']);
const STORED_CONTACTS = 10_000;
const DEMO = { username: 'bench', email: 'bench@agency.local', password: 'bench-password-1234' };

const enquiry = {
  firstName: 'Amira',
  lastName: 'Ben Salah',
  email: 'amira@example.tn',
  phone: '+216 20 123 456',
  service: 'web-design',
  message: 'We need a new website for our bakery chain in Sfax and Sousse.',
};

for (const file of ['backend/dist/server.js', 'worker/dist/index.js']) {
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

/** @param {string} url */
async function waitForHealth(url) {
  for (let attempt = 0; attempt < 300; attempt += 1) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((done) => setTimeout(done, 100));
  }
  throw new Error(`${url} never answered 200`);
}

/**
 * How many commands of each kind the store has served, API and worker
 * together (`serverStatus`, which MongoDB and FerretDB both report).
 * @param {any} db @returns {Promise<Record<string, number>>}
 */
async function storeCommands(db) {
  const status = await db.admin().command({ serverStatus: 1 });
  /** @type {Record<string, { total?: number }>} */
  const commands = status.metrics?.commands ?? {};
  return Object.fromEntries(
    Object.entries(commands).map(([name, counts]) => [name, Number(counts.total ?? 0)]),
  );
}

/** @param {Record<string, number>} before @param {Record<string, number>} after */
function commandsSince(before, after) {
  return Object.fromEntries(
    ['insert', 'find', 'update', 'delete', 'findAndModify'].map((name) => [
      name,
      (after[name] ?? 0) - (before[name] ?? 0),
    ]),
  );
}

/** @param {Record<string, number>} commands @param {number} enquiries */
function perEnquiry(commands, enquiries) {
  return Object.entries(commands)
    .filter(([, count]) => count > 0)
    .map(([name, count]) => `${name} ${(count / Math.max(1, enquiries)).toFixed(2)}`)
    .join(', ');
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
  return summary(latencies, latencies.length / ((performance.now() - started) / 1000));
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
    const apiPort = await freePort();
    const apiUrl = `http://127.0.0.1:${apiPort}`;
    const env = {
      ...process.env,
      NODE_ENV: 'development',
      LOG_LEVEL: 'warn',
      MONGODB_URI: mongodbUri,
      REDIS_URL: services.redisUrl,
      QUEUE_PREFIX: `bench${Date.now()}`,
      API_HOST: '127.0.0.1',
      API_PORT: String(apiPort),
      SMTP_URL: sink.url,
      MAIL_TO: 'inbox@agency.local',
      // The bench is one address sending thousands of enquiries.
      CONTACT_RATE_LIMIT_MAX: '1000000',
      DEMO_MODE: 'true',
      DEMO_ADMIN_USERNAME: DEMO.username,
      DEMO_ADMIN_EMAIL: DEMO.email,
      DEMO_ADMIN_PASSWORD: DEMO.password,
      // The bench signs in with the password alone.
      TWO_FACTOR_REQUIRED_ROLES: 'none',
    };

    const mongoose = require('mongoose');
    await mongoose.connect(mongodbUri);
    cleanups.push(() => mongoose.disconnect());
    const db = mongoose.connection.db;
    const now = () => new Date();
    const bareDocument = () => ({
      ...enquiry,
      locale: 'en',
      status: 'new',
      createdAt: now(),
      updatedAt: now(),
    });

    console.log(
      `autocannon and the bare loops: ${CONNECTIONS} connections (contacts page: ${PAGE_REQUESTS} requests one after another), ${DURATION} s each (parts ${PART_DURATION} s), loopback`,
    );

    // 1. The enquiry path with its worker.
    const api = startNode('api', 'backend/dist/server.js', env);
    cleanups.push(api.stop);
    await waitForHealth(`${apiUrl}/api/health`);
    const worker = startNode('worker', 'worker/dist/index.js', env);
    cleanups.push(worker.stop);

    // The same indexes as the contacts collection: on this store every index
    // costs each insert, so "the same work" means the same indexes.
    const bare = await collectionLikeContacts(db, 'bench_bare_contacts');
    const bareInsert = await loop(() => bare.insertOne(bareDocument()));
    const commandsBefore = await storeCommands(db);
    const submit = await cannon({
      url: `${apiUrl}/api/contact`,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(enquiry),
    });
    const commandsDuringBurst = commandsSince(commandsBefore, await storeCommands(db));

    // 2. The contacts page over 10,000 stored contacts, once the worker has
    // mailed the enquiries above (its writes would compete for the store).
    const drainStarted = performance.now();
    await waitForDrain(env);
    const drainSeconds = (performance.now() - drainStarted) / 1000;
    const commandsToDrain = commandsSince(commandsBefore, await storeCommands(db));
    // The same route with no worker writing beside it, on a store of the same size.
    await worker.stop();
    const noWorker = await cannon({
      url: `${apiUrl}/api/contact`,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(enquiry),
    });
    const contacts = db.collection('contacts');
    const present = await contacts.countDocuments();
    const missing = Math.max(0, STORED_CONTACTS - present);
    for (let offset = 0; offset < missing; offset += 2000) {
      await contacts.insertMany(
        Array.from({ length: Math.min(2000, missing - offset) }, () => bareDocument()),
      );
    }
    const signIn = await fetch(`${apiUrl}/api/admin/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: DEMO.username, password: DEMO.password }),
    });
    const { token } = /** @type {{ token: string }} */ (await signIn.json());
    const stored = await contacts.countDocuments();
    const barePage = await repeat(PAGE_REQUESTS, () =>
      Promise.all([
        contacts.find({}).sort({ createdAt: -1, _id: -1 }).limit(20).toArray(),
        contacts.countDocuments({}),
      ]),
    );
    const page = await repeat(PAGE_REQUESTS, async () => {
      const response = await fetch(
        `${apiUrl}/api/admin/contacts?page=1&pageSize=20&sort=-createdAt`,
        {
          headers: { authorization: `Bearer ${token}` },
        },
      );
      const body = /** @type {{ total: number }} */ (await response.json());
      if (!response.ok || body.total !== stored)
        throw new Error(`page answered ${response.status}`);
    });

    printTable('Targets', [
      { name: 'bare driver insertOne (same document, same store)', ...bareInsert },
      {
        name: 'POST /api/contact (API + worker)',
        ...submit,
        note: `${(submit.rate / bareInsert.rate).toFixed(2)}x the bare rate (target >= 0.5x, p99 < 250 ms) ${submit.note}`,
      },
      {
        name: `bare driver find page 1 + count (${stored} contacts, one at a time)`,
        ...barePage,
      },
      {
        name: 'POST /api/contact, API alone (worker stopped)',
        ...noWorker,
        note: `${(noWorker.rate / bareInsert.rate).toFixed(2)}x the bare rate ${noWorker.note}`,
      },
      {
        name: `GET /api/admin/contacts page 1 + total (${stored}, one at a time)`,
        ...page,
        note: `${(page.p50 / barePage.p50).toFixed(2)}x the bare p50 time (target <= 1.25x) ${page.note}`,
      },
    ]);

    console.log(
      `\nStore commands per enquiry (API and worker, commands of a batch count once), ${submit.ok} enquiries:`,
    );
    console.log(`  during the 10 s burst: ${perEnquiry(commandsDuringBurst, submit.ok)}`);
    console.log(
      `  until the worker drained its queue (${drainSeconds.toFixed(1)} s after the burst): ${perEnquiry(commandsToDrain, submit.ok)}`,
    );

    // 3. Where the time of POST /api/contact goes.
    await api.stop();
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
  const { storeContact } = require(join(root, 'backend/dist/modules/contact/contact.service.js'));
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
      url: '/api/contact',
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
        await storeContact(enquiry, 'en');
      }),
      await measure('bare insertOne behind Koa', async () => {
        await bare.insertOne({ ...enquiry, createdAt: new Date() });
      }),
      await measure(
        'rate limit + storeContact + enqueue (the route, no validation)',
        async () => {
          const contact = await storeContact(enquiry, 'en');
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
