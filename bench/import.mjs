// @ts-check
/**
 * `npm run bench:import`: a CSV file of 100,000 rows imported into an empty
 * list through the real API, queue and worker process, against the store's
 * bare `insertMany` of the same rows (as list members, with the same
 * indexes) in the same run. Compare ratios within one run: the machine's
 * load moves absolute numbers.
 *
 * Prints the import's rate (rows per second, from the start request to
 * `done`), its ratio to the bare insertMany rate, the upload's time, the
 * worker's peak RSS (VmHWM) and the CPU it and the store spend per row, with
 * the targets.
 *
 *   npm run build && npm run bench:import [-- --rows 100000]
 * Uses MONGODB_URI / REDIS_URL when set (use throw-away ones), else starts both.
 * The worker gets the heap cap of WORKER_HEAP_MB (default 112), as under npm start.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createRequire } from 'node:module';
import { workerNodeOptions } from '../scripts/lib/app-env.mjs';
import { startServices } from '../scripts/lib/services.mjs';
import { printReport, runBench, runCleanups, targetBook, until } from './lib/bench-steps.mjs';
import { cpuSecondsOf, freePort } from './lib/processes.mjs';
import { apiUrlOf, benchAppEnv, signIn, startApi, startWorker } from './lib/stack-processes.mjs';

const root = resolve(import.meta.dirname, '..');
const require = createRequire(join(root, 'worker', 'package.json'));
const { API_ROUTES, apiPath, withDatabaseName } = require('@agency/contracts');
const { values: args } = parseArgs({
  options: { rows: { type: 'string', default: '100000' } },
});
const ROWS = Number(args.rows);
/** Rows per insertMany: the import's own chunk. */
const CHUNK = 1000;
const TARGETS = { ratio: 0.5, rssMb: 150 };

for (const file of ['backend/dist/server.js', 'worker/dist/index.js']) {
  if (!existsSync(join(root, file))) {
    console.error(`${file} is missing: run npm run build first`);
    process.exit(1);
  }
}

const email = (/** @type {number} */ index) => `guest${index}@bench.example`;

/** The file: an address, names, a language and tags per row, as an event's guest list has. */
function csvFile() {
  const lines = ['Email,First name,Last name,Language,Tags'];
  for (let index = 0; index < ROWS; index += 1) {
    lines.push(`${email(index)},Guest ${index},Bench,${index % 3 ? 'en' : 'fr'},"expo, 2026"`);
  }
  return Buffer.from(`${lines.join('\r\n')}\r\n`);
}

/**
 * The store alone: the same rows as list members (the import's documents,
 * `_id` `<list>:<address>`, with its two indexes) in chunks of 1,000
 * through the driver's unordered insertMany, nothing else.
 * @param {any} db
 */
async function bareInsertMany(db) {
  const collection = db.collection('bare_members');
  await collection.createIndex({ list: 1 });
  await collection.createIndex({ key: 1 });
  const list = new (require('mongoose').Types.ObjectId)();
  const started = performance.now();
  for (let from = 0; from < ROWS; from += CHUNK) {
    const now = new Date();
    const documents = [];
    for (let index = from; index < Math.min(ROWS, from + CHUNK); index += 1) {
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
  return { rate: Math.round(ROWS / seconds), seconds };
}

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'agency-bench-import-'));
  /** @type {(() => unknown)[]} */
  const cleanups = [() => rmSync(dataDir, { recursive: true, force: true })];
  try {
    const services = await startServices({ dataDir, mailCatcher: false });
    cleanups.push(services.stop);
    const stamp = Date.now();
    const mongodbUri = withDatabaseName(services.mongodbUri, `bench_import_${stamp}`);
    const mongoose = require('mongoose');
    await mongoose.connect(mongodbUri);
    cleanups.push(() => mongoose.disconnect());

    // 1. The store's bare insertMany of the same rows.
    const bare = await bareInsertMany(mongoose.connection.db);

    // 2. The API and one worker.
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
    const worker = startWorker('worker', env);
    cleanups.push(worker.stop);
    const { Queue } = require('bullmq');
    const { Redis } = require('ioredis');
    const connection = new Redis(services.redisUrl, { maxRetriesPerRequest: null });
    cleanups.push(() => connection.disconnect());
    const importQueue = new Queue('list-import', { connection, prefix: env.QUEUE_PREFIX });
    cleanups.push(() => importQueue.close());
    await until(async () => (await importQueue.getWorkersCount()) >= 1, 60_000);

    // 3. The import, through the API as the dashboard runs it.
    const auth = await signIn(apiUrl);
    const headers = { ...auth, 'content-type': 'application/json' };
    const list = await fetch(`${apiUrl}${API_ROUTES.lists}`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ name: 'Bench guests' }),
    }).then((response) => response.json());
    const file = csvFile();
    const uploadStarted = performance.now();
    const uploadResponse = await fetch(`${apiUrl}${API_ROUTES.imports}`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'text/csv', 'x-file-name': 'bench.csv' },
      body: file,
    });
    const upload = await uploadResponse.json();
    if (uploadResponse.status !== 201) throw new Error(`upload: ${JSON.stringify(upload)}`);
    const uploadSeconds = (performance.now() - uploadStarted) / 1000;

    const serverCpuBefore = services.started.map(({ pid }) => cpuSecondsOf(pid));
    const workerCpuBefore = worker.cpuSeconds();
    const rssBefore = worker.peakRssMb();
    const importStarted = performance.now();
    const started = await fetch(`${apiUrl}${apiPath(API_ROUTES.importStart, { id: upload.id })}`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ listId: list.id, mapping: upload.suggestedMapping }),
    });
    if (started.status !== 202) throw new Error(`start answered ${started.status}`);
    /** @type {any} */
    let result;
    await until(
      async () => {
        result = await fetch(`${apiUrl}${apiPath(API_ROUTES.import, { id: upload.id })}`, {
          headers: auth,
        }).then((response) => response.json());
        return ['done', 'failed', 'cancelled'].includes(result.status);
      },
      30 * 60_000,
      250,
    );
    const importSeconds = (performance.now() - importStarted) / 1000;
    const serverCpu = services.started.map(({ name, pid }, index) => ({
      name,
      seconds: cpuSecondsOf(pid) - (serverCpuBefore[index] ?? 0),
    }));
    const workerCpu = worker.cpuSeconds() - workerCpuBefore;
    const peakRss = worker.peakRssMb();

    // 4. The table.
    const importRate = Math.round(ROWS / importSeconds);
    const ratio = importRate / bare.rate;
    const { missed, check } = targetBook();
    const perRow = (/** @type {number} */ seconds) => `${Math.round((seconds * 1e6) / ROWS)} µs`;
    const created = result.counts.created;
    const rows = [
      [
        'store alone: insertMany of the same members',
        `${bare.rate} rows/s`,
        `${CHUNK} per call, unordered, 2 indexes; ${bare.seconds.toFixed(1)} s`,
      ],
      [
        'import: start request to done',
        `${importRate} rows/s, ${ratio.toFixed(2)}x`,
        check('import rate', ratio >= TARGETS.ratio, `>= ${TARGETS.ratio}x the bare insertMany`),
      ],
      [
        'import: rows created',
        `${created} of ${ROWS}`,
        check('every row created', result.status === 'done' && created === ROWS, `${ROWS}, done`),
      ],
      [
        'upload: file into GridFS, checked and counted',
        `${uploadSeconds.toFixed(1)} s`,
        `${(file.length / 1024 / 1024).toFixed(1)} MB`,
      ],
      [
        'worker peak RSS (VmHWM)',
        `${peakRss.toFixed(0)} MB`,
        check('worker RSS', peakRss <= TARGETS.rssMb, `<= ${TARGETS.rssMb} MB`),
      ],
      ['worker peak RSS before the import', `${rssBefore.toFixed(0)} MB`, 'started and idle'],
      ['worker CPU per row', perRow(workerCpu), `${workerCpu.toFixed(1)} s in all`],
      [
        'store and Redis CPU per row',
        serverCpu.map(({ name, seconds }) => `${name} ${perRow(seconds)}`).join(', ') ||
          'none started here',
        'during the import',
      ],
    ];
    printReport(
      `bench:import, ${ROWS} rows into an empty list, one worker process (${workerNodeOptions(process.env)})`,
      rows,
      missed,
    );
  } finally {
    await runCleanups(cleanups);
  }
}

runBench(main);
