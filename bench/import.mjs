// @ts-check
/**
 * `npm run bench:import`: a CSV file imported into an empty list through the
 * real API, queue and worker process, against the store's bare `insertMany`
 * of the same rows (as list members, with the same indexes) in the same run.
 * Compare ratios within one run: the machine's load moves absolute numbers.
 *
 *   npm run build && npm run bench:import [-- --rows 100000] [-- --scale 10] [-- --kill-at-half]
 *
 * --rows N       one size: N rows (default 100,000). With --scale, the 1x size.
 * --scale N      the cost curve: 1x (--rows) and then N x, each on a fresh
 *                database with a fresh API and worker; then a table of both
 *                sizes side by side. The kill step runs at the larger size.
 * --kill-at-half after the measured import(s), one more import of the largest
 *                size whose worker is killed (SIGKILL) once half the rows are
 *                read; a new worker takes it over and the store is checked.
 * --skip-kill    no kill step with --scale.
 *
 * Each size prints, with the targets: the bare insertMany's rate; the
 * import's rate (start request to `done`) and its ratio to it; time per row;
 * the worker's and the store's CPU per row; the worker's peak RSS (VmHWM)
 * before and after the import, and the largest RSS read while it ran; the
 * upload's time; and the longest time the import's progress, as the
 * dashboard reads it (the rows read, through the API, asked every 200 ms),
 * stood still. The kill step prints where the
 * worker was killed, how long the import stood still until a new worker took
 * it over, and what the store holds at the end: members, distinct
 * addresses, duplicates, missing rows, the import's status and counts.
 *
 * Uses MONGODB_URI / REDIS_URL when set (use throw-away ones), else starts both.
 * The worker gets the heap cap of WORKER_HEAP_MB (default 112), as under npm start.
 * BENCH_CPU_PROF_DIR=<dir> makes the API and workers write CPU profiles there.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createRequire } from 'node:module';
import { workerNodeOptions } from '../scripts/lib/app-env.mjs';
import { startServices } from '../scripts/lib/services.mjs';
import { printReport, runBench, runCleanups, targetBook, until } from './lib/bench-steps.mjs';
import { longestProgressGap, watchImport } from './lib/import-watch.mjs';
import { postFile } from './lib/post-file.mjs';
import { cpuSecondsOf, freePort, rssMbOf } from './lib/processes.mjs';
import { apiUrlOf, benchAppEnv, signIn, startApi, startWorker } from './lib/stack-processes.mjs';

const root = resolve(import.meta.dirname, '..');
const require = createRequire(join(root, 'worker', 'package.json'));
const { API_ROUTES, apiPath, withDatabaseName } = require('@agency/contracts');
const { values: args } = parseArgs({
  options: {
    rows: { type: 'string', default: '100000' },
    scale: { type: 'string' },
    'kill-at-half': { type: 'boolean', default: false },
    'skip-kill': { type: 'boolean', default: false },
  },
});
const BASE_ROWS = Number(args.rows);
const SCALE = args.scale === undefined ? 1 : Number(args.scale);
if (!Number.isInteger(BASE_ROWS) || BASE_ROWS < 1000 || !Number.isInteger(SCALE) || SCALE < 1) {
  console.error('--rows takes a whole number from 1000, --scale a whole number from 1');
  process.exit(1);
}
const SIZES = SCALE > 1 ? [BASE_ROWS, BASE_ROWS * SCALE] : [BASE_ROWS];
const KILL_STEP = args['kill-at-half'] || (SCALE > 1 && !args['skip-kill']);
/** Rows per insertMany: the import's own chunk. */
const CHUNK = 1000;
const TARGETS = { ratio: 0.5, rssMb: 150, progressGapSeconds: 2 };
/** How often the bench reads the import, as a dashboard polling it would. */
const POLL_MS = 200;

for (const file of ['backend/dist/server.js', 'worker/dist/index.js']) {
  if (!existsSync(join(root, file))) {
    console.error(`${file} is missing: run npm run build first`);
    process.exit(1);
  }
}

const email = (/** @type {number} */ index) => `guest${index}@bench.example`;

/**
 * The file: an address, names, a language and tags per row, as an event's guest list has.
 * @param {number} rows
 */
function csvFile(rows) {
  const lines = ['Email,First name,Last name,Language,Tags'];
  for (let index = 0; index < rows; index += 1) {
    lines.push(`${email(index)},Guest ${index},Bench,${index % 3 ? 'en' : 'fr'},"expo, 2026"`);
  }
  return Buffer.from(`${lines.join('\r\n')}\r\n`);
}

/**
 * The store alone: the same rows as list members (the import's documents,
 * `_id` `<list>:<address>`, with its two indexes) in chunks of 1,000
 * through the driver's unordered insertMany, nothing else.
 * @param {any} db @param {number} rows
 */
async function bareInsertMany(db, rows) {
  const collection = db.collection('bare_members');
  await collection.createIndex({ list: 1 });
  await collection.createIndex({ key: 1 });
  const list = new (require('mongoose').Types.ObjectId)();
  const started = performance.now();
  for (let from = 0; from < rows; from += CHUNK) {
    const now = new Date();
    const documents = [];
    for (let index = from; index < Math.min(rows, from + CHUNK); index += 1) {
      documents.push({
        _id: `${list.toHexString()}:${email(index)}`,
        key: email(index),
        email: email(index),
        firstName: `Guest ${index}`,
        lastName: 'Bench',
        locale: index % 3 ? 'en' : 'fr',
        tags: ['expo', '2026'],
        list,
        importId: list,
        consent: { basis: 'import', at: now, file: 'bench.csv', listName: 'Bench' },
        createdAt: now,
        updatedAt: now,
      });
    }
    await collection.insertMany(documents, { ordered: false });
  }
  const seconds = (performance.now() - started) / 1000;
  await collection.drop();
  return { rate: Math.round(rows / seconds), seconds };
}

/**
 * @typedef {{ mongodbUri: string, redisUrl: string, started: { name: string, pid: number }[] }} Services
 * @typedef {{ dataDir: string, services: Services }} Where
 */

/**
 * Stops a worker politely, or kills it after 10 s: once an import is `done`
 * its job goes on refreshing the people of the list's members, which on the
 * embedded store takes minutes at a million rows and is not measured here.
 * @param {{ pid: number | undefined, stop: () => Promise<unknown> }} worker
 */
async function stopSoon(worker) {
  const stopped = worker.stop();
  const late = await Promise.race([
    stopped.then(() => false),
    new Promise((done) => setTimeout(() => done(true), 10_000)),
  ]);
  if (late && worker.pid) process.kill(worker.pid, 'SIGKILL');
  await stopped;
}

/**
 * A fresh database, API and worker for one import; `stop` ends them.
 * @param {Where & { name: string }} where
 */
async function openStack({ dataDir, services, name }) {
  /** @type {(() => unknown)[]} */
  const cleanups = [];
  const stamp = `${name}_${Date.now()}`;
  const mongodbUri = withDatabaseName(services.mongodbUri, `bench_import_${stamp}`);
  const mongoose = require('mongoose');
  const connection = mongoose.createConnection(mongodbUri);
  await connection.asPromise();
  cleanups.push(() => connection.close());
  const env = benchAppEnv({
    dataDir,
    mongodbUri,
    redisUrl: services.redisUrl,
    queuePrefix: `benchimport${stamp}`,
    apiPort: await freePort(),
    // An import sends no mail.
    smtpUrl: 'smtp://127.0.0.1:9',
  });
  const apiUrl = apiUrlOf(env);
  const api = startApi(env);
  cleanups.push(api.stop);
  await api.healthy();
  const { Queue } = require('bullmq');
  const { Redis } = require('ioredis');
  const redis = new Redis(services.redisUrl, { maxRetriesPerRequest: null });
  cleanups.push(() => redis.disconnect());
  const importQueue = new Queue('list-import', { connection: redis, prefix: env.QUEUE_PREFIX });
  cleanups.push(() => importQueue.close());
  /** @type {{ pid: number | undefined, stop: () => Promise<unknown>, killed: boolean }[]} */
  const workers = [];
  cleanups.push(() => Promise.all(workers.map((w) => (w.killed ? undefined : stopSoon(w)))));
  return {
    db: connection.db,
    apiUrl,
    auth: await signIn(apiUrl),
    /** Starts a worker and waits until it listens on the import queue. */
    async startWorker() {
      const worker = { ...startWorker(`worker-${workers.length + 1}`, env), killed: false };
      workers.push(worker);
      // A killed worker's Redis connection may linger a moment: count the live ones only.
      const live = workers.filter(({ killed }) => !killed).length;
      await until(async () => (await importQueue.getWorkersCount()) >= live, 60_000);
      return worker;
    },
    /** Stops the workers (killed after 10 s), leaving the store to the bench's reads. */
    stopWorkers: () => Promise.all(workers.map((w) => (w.killed ? undefined : stopSoon(w)))),
    stop: () => runCleanups(cleanups),
  };
}

/**
 * Creates a list, uploads the file and starts its import, as the dashboard does.
 * @param {Awaited<ReturnType<typeof openStack>>} stack @param {number} rows
 */
async function uploadAndStart(stack, rows) {
  const { apiUrl, auth } = stack;
  const headers = { ...auth, 'content-type': 'application/json' };
  const list = await fetch(`${apiUrl}${API_ROUTES.lists}`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ name: 'Bench guests' }),
  }).then((response) => /** @type {Promise<any>} */ (response.json()));
  const file = csvFile(rows);
  const uploadStarted = performance.now();
  const { status, body: upload } = await postFile(
    `${apiUrl}${API_ROUTES.imports}`,
    { ...auth, 'content-type': 'text/csv', 'x-file-name': 'bench.csv' },
    file,
  );
  if (status !== 201) throw new Error(`upload answered ${status}: ${JSON.stringify(upload)}`);
  const uploadSeconds = (performance.now() - uploadStarted) / 1000;
  return {
    listId: /** @type {string} */ (list.id),
    importId: /** @type {string} */ (upload.id),
    fileMb: file.length / 1024 / 1024,
    uploadSeconds,
    async start() {
      const started = await fetch(
        `${apiUrl}${apiPath(API_ROUTES.importStart, { id: upload.id })}`,
        {
          method: 'POST',
          headers,
          body: JSON.stringify({ listId: list.id, mapping: upload.suggestedMapping }),
        },
      );
      if (started.status !== 202) throw new Error(`start answered ${started.status}`);
    },
    /** The import as the dashboard reads it. @returns {Promise<import('./lib/import-watch.mjs').ImportSeen>} */
    read: () =>
      fetch(`${apiUrl}${apiPath(API_ROUTES.import, { id: upload.id })}`, { headers: auth }).then(
        (response) => /** @type {Promise<any>} */ (response.json()),
      ),
  };
}

/**
 * One size: the bare insertMany, then the import with its CPU, memory and progress.
 * @param {Where} where @param {number} rows
 */
async function measureSize(where, rows) {
  const stack = await openStack({ ...where, name: `r${rows}` });
  try {
    const bare = await bareInsertMany(stack.db, rows);
    const worker = await stack.startWorker();
    const job = await uploadAndStart(stack, rows);
    const serverCpuBefore = where.services.started.map(({ pid }) => cpuSecondsOf(pid));
    const workerCpuBefore = worker.cpuSeconds();
    const rssBefore = worker.peakRssMb();
    await job.start();
    // The worker's resident set at each poll: where in the file memory grew.
    const rss = { mb: 0, atRows: 0 };
    const watched = await watchImport(job.read, {
      everyMs: POLL_MS,
      timeoutMs: 60 * 60_000,
      onPoll: async (seen) => {
        const now = rssMbOf(worker.pid);
        if (now > rss.mb) Object.assign(rss, { mb: now, atRows: seen.counts.read });
      },
    });
    const seconds = (watched.endedAt - watched.startedAt) / 1000;
    const storeCpu = where.services.started.map(({ name, pid }, index) => ({
      name,
      seconds: cpuSecondsOf(pid) - (serverCpuBefore[index] ?? 0),
    }));
    return {
      rows,
      bare,
      seconds,
      rate: Math.round(rows / seconds),
      ratio: rows / seconds / bare.rate,
      result: watched.last,
      gap: longestProgressGap(watched),
      workerCpu: worker.cpuSeconds() - workerCpuBefore,
      storeCpu,
      rssBefore,
      peakRss: worker.peakRssMb(),
      rss,
      upload: { seconds: job.uploadSeconds, mb: job.fileMb },
    };
  } finally {
    await stack.stop();
  }
}

/**
 * What the store holds for the list: its members, their distinct addresses,
 * and the file's rows with no member.
 * @param {any} db @param {string} listId @param {number} rows
 */
async function membersOfList(db, listId, rows) {
  const { Types } = require('mongoose');
  const keys = new Set();
  let members = 0;
  const cursor = db
    .collection('listmembers')
    .find({ list: new Types.ObjectId(listId) }, { projection: { key: 1, _id: 0 } });
  for await (const member of cursor) {
    members += 1;
    keys.add(member.key);
  }
  let missing = 0;
  for (let index = 0; index < rows; index += 1) if (!keys.has(email(index))) missing += 1;
  const list = await db.collection('mailinglists').findOne({ _id: new Types.ObjectId(listId) });
  return { members, distinct: keys.size, missing, memberCount: list?.memberCount };
}

/**
 * The kill step: the worker SIGKILLed once half the rows are read, a new
 * one started, the import let finish, and the store checked.
 * @param {Where} where @param {number} rows
 */
async function killAtHalf(where, rows) {
  const stack = await openStack({ ...where, name: `kill${rows}` });
  try {
    const first = await stack.startWorker();
    const job = await uploadAndStart(stack, rows);
    /** @type {{ read: number, at: number } | undefined} */
    let kill;
    /** @type {number | undefined} */
    let movedAgainAt;
    await job.start();
    const watched = await watchImport(job.read, {
      everyMs: POLL_MS,
      timeoutMs: 60 * 60_000,
      onPoll: async (seen) => {
        if (!kill && seen.counts.read >= rows / 2) {
          process.kill(/** @type {number} */ (first.pid), 'SIGKILL');
          first.killed = true;
          kill = { read: seen.counts.read, at: performance.now() };
          await stack.startWorker();
        } else if (kill && movedAgainAt === undefined && seen.counts.read > kill.read) {
          movedAgainAt = performance.now();
        }
      },
    });
    if (!kill) throw new Error('the import ended before half its rows were read');
    // The done job goes on refreshing the people of a million members, and a
    // worker started on an empty people view fills it: on the embedded store
    // both read every member, beside the bench's own read below.
    await stack.stopWorkers();
    const stored = await membersOfList(stack.db, job.listId, rows);
    const takeover = ((movedAgainAt ?? watched.endedAt) - kill.at) / 1000;
    return {
      rows,
      killedAt: kill.read,
      takeover,
      seconds: (watched.endedAt - watched.startedAt) / 1000,
      result: watched.last,
      stored,
      gapBeforeKill: longestProgressGap({
        steps: watched.steps.filter((step) => step.at <= (kill?.at ?? 0)),
        startedAt: watched.startedAt,
        endedAt: kill.at,
      }),
    };
  } finally {
    await stack.stop();
  }
}

const count = (/** @type {number} */ value) => value.toLocaleString('en');
const micro = (/** @type {number} */ seconds, /** @type {number} */ rows) =>
  `${Math.round((seconds * 1e6) / rows)} µs`;

/**
 * One size's rows of the table, each with its target where it has one.
 * @param {Awaited<ReturnType<typeof measureSize>>} size @param {ReturnType<typeof targetBook>} book
 */
function sizeRows(size, { check }) {
  const { rows, result } = size;
  const at = `${count(rows)} rows`;
  return [
    [
      `${at}: store alone, insertMany of the same members`,
      `${count(size.bare.rate)} rows/s`,
      `${CHUNK} per call, unordered, 2 indexes; ${size.bare.seconds.toFixed(1)} s`,
    ],
    [
      `${at}: import, start request to done`,
      `${count(size.rate)} rows/s, ${size.ratio.toFixed(2)}x`,
      check(
        `import rate at ${at}`,
        size.ratio >= TARGETS.ratio,
        `>= ${TARGETS.ratio}x the bare insertMany`,
      ),
    ],
    [
      `${at}: import time per row (bare insertMany)`,
      `${micro(size.seconds, rows)} (${micro(size.bare.seconds, rows)})`,
      `${size.seconds.toFixed(1)} s in all`,
    ],
    [
      `${at}: rows created`,
      `${count(result.counts.created)} of ${count(rows)}`,
      check(
        `every row created at ${at}`,
        result.status === 'done' && result.counts.created === rows,
        `${count(rows)}, done`,
      ),
    ],
    [
      `${at}: longest progress gap`,
      `${size.gap.seconds.toFixed(1)} s`,
      `${check(
        `progress gap at ${at}`,
        size.gap.seconds <= TARGETS.progressGapSeconds,
        `<= ${TARGETS.progressGapSeconds} s`,
      )}; ${size.gap.updates} updates seen, longest after ${count(size.gap.afterRows)} rows`,
    ],
    [
      `${at}: worker peak RSS (VmHWM) before / after`,
      `${size.rssBefore.toFixed(0)} MB / ${size.peakRss.toFixed(0)} MB`,
      check(`worker RSS at ${at}`, size.peakRss <= TARGETS.rssMb, `<= ${TARGETS.rssMb} MB`),
    ],
    [
      `${at}: worker's largest RSS seen while it ran`,
      `${size.rss.mb.toFixed(0)} MB`,
      `read every 200 ms; first seen at ${count(size.rss.atRows)} rows read`,
    ],
    [
      `${at}: worker CPU per row`,
      micro(size.workerCpu, rows),
      `${size.workerCpu.toFixed(1)} s in all`,
    ],
    [
      `${at}: store and Redis CPU per row`,
      size.storeCpu.map(({ name, seconds }) => `${name} ${micro(seconds, rows)}`).join(', ') ||
        'none started here',
      'during the import',
    ],
    [
      `${at}: upload, file into GridFS, checked and counted`,
      `${size.upload.seconds.toFixed(1)} s`,
      `${size.upload.mb.toFixed(1)} MB`,
    ],
  ];
}

/**
 * The cost curve: each figure per row at 1x and N x, and how it grew.
 * @param {Awaited<ReturnType<typeof measureSize>>[]} sizes
 */
function printCostCurve(sizes) {
  const [small, large] = sizes;
  if (!small || !large) return;
  const perRow = (/** @type {Awaited<ReturnType<typeof measureSize>>} */ size) => ({
    'import µs/row': Math.round((size.seconds * 1e6) / size.rows),
    'bare insertMany µs/row': Math.round((size.bare.seconds * 1e6) / size.rows),
    ratio: Number(size.ratio.toFixed(2)),
    'worker CPU µs/row': Math.round((size.workerCpu * 1e6) / size.rows),
    'store CPU µs/row': Math.round(
      (size.storeCpu.reduce((sum, { seconds }) => sum + seconds, 0) * 1e6) / size.rows,
    ),
    'worker RSS before MB': Math.round(size.rssBefore),
    'worker peak RSS MB': Math.round(size.peakRss),
    'longest progress gap s': Number(size.gap.seconds.toFixed(1)),
  });
  const a = perRow(small);
  const b = perRow(large);
  console.log(
    `\nCost curve: ${count(small.rows)} rows (1x) and ${count(large.rows)} rows (${SCALE}x)\n`,
  );
  console.table(
    Object.keys(a).map((figure) => {
      const x1 = a[/** @type {keyof typeof a} */ (figure)];
      const xN = b[/** @type {keyof typeof b} */ (figure)];
      return { figure, '1x': x1, [`${SCALE}x`]: xN, growth: x1 ? `${(xN / x1).toFixed(2)}x` : '-' };
    }),
  );
}

/**
 * @param {Awaited<ReturnType<typeof killAtHalf>>} kill @param {ReturnType<typeof targetBook>} book
 */
function killRows(kill, { check }) {
  const { rows, stored, result } = kill;
  const duplicates = stored.members - stored.distinct;
  return [
    [
      'kill step: worker SIGKILLed after',
      `${count(kill.killedAt)} of ${count(rows)} rows read`,
      'a new worker started at once',
    ],
    [
      'kill step: progress stood still until the takeover',
      `${kill.takeover.toFixed(1)} s`,
      "the dead worker's lock expiring, then two stalled checks (CAMPAIGN_LOCK_SECONDS)",
    ],
    [
      'kill step: longest progress gap before the kill',
      `${kill.gapBeforeKill.seconds.toFixed(1)} s`,
      check(
        'progress gap before the kill',
        kill.gapBeforeKill.seconds <= TARGETS.progressGapSeconds,
        `<= ${TARGETS.progressGapSeconds} s`,
      ),
    ],
    [
      'kill step: members in the store (distinct addresses)',
      `${count(stored.members)} (${count(stored.distinct)})`,
      check('no duplicate member', duplicates === 0, '0 duplicates'),
    ],
    [
      "kill step: the file's rows with no member",
      count(stored.missing),
      check('no missing member', stored.missing === 0, '0 missing'),
    ],
    [
      "kill step: import's status, created count, list's member count",
      `${result.status}, ${count(result.counts.created)}, ${count(stored.memberCount ?? 0)}`,
      check(
        'import done with its counts',
        result.status === 'done' && result.counts.created === rows && stored.memberCount === rows,
        `done, ${count(rows)}, ${count(rows)}`,
      ),
    ],
    ['kill step: start request to done', `${kill.seconds.toFixed(1)} s`, 'with the takeover'],
  ];
}

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'agency-bench-import-'));
  /** @type {(() => unknown)[]} */
  const cleanups = [() => rmSync(dataDir, { recursive: true, force: true })];
  try {
    const services = await startServices({ dataDir, mailCatcher: false });
    cleanups.push(services.stop);
    const where = { dataDir, services };
    const book = targetBook();
    /** @type {Awaited<ReturnType<typeof measureSize>>[]} */
    const sizes = [];
    for (const rows of SIZES) {
      console.log(`importing ${count(rows)} rows...`);
      const size = await measureSize(where, rows);
      sizes.push(size);
      // Printed at once too: a long run's figures outlive a later step's failure.
      console.table(
        sizeRows(size, targetBook()).map(([what, figure, note]) => ({ what, figure, note })),
      );
    }
    printCostCurve(sizes);
    const rows = sizes.flatMap((size) => sizeRows(size, book));
    const largest = SIZES.at(-1) ?? BASE_ROWS;
    if (KILL_STEP) {
      console.log(`importing ${count(largest)} rows, the worker killed at half-way...`);
      try {
        rows.push(...killRows(await killAtHalf(where, largest), book));
      } catch (error) {
        rows.push(['kill step', 'FAILED', book.check('kill step', false, String(error))]);
      }
    }
    printReport(
      `bench:import, ${SIZES.map(count).join(' then ')} rows into an empty list, one worker process (${workerNodeOptions(process.env)})`,
      rows,
      book.missed,
    );
  } finally {
    await runCleanups(cleanups);
  }
}

runBench(main);
