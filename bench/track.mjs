// @ts-check
/**
 * `npm run bench:track`: the open pixel and the tracking redirect through the
 * real API, next to a bare Koa "hello" measured in the same run (compare
 * ratios within one run: the load generator shares the machine's cores).
 *
 * 1. A bare Koa app answering "hello", in a process of its own.
 * 2. `--requests` (20,000) opens and as many clicks in `--bursts` (4)
 *    bursts each, every burst next to one of the bare app (the machine's
 *    load moves during a run), `--connections` at once (the rate at
 *    saturation), each request with one of `--recipients` tokens signed as
 *    the worker signs them; the worst burst's p50 and p99. Then the
 *    p99 of each paced at `--paced-rate` (1,000 req/s, 10 connections): at
 *    saturation, every answer waits behind the others, the bare Koa app's too.
 * 3. Twice as many clicks with Redis frozen (SIGSTOP, or CLIENT PAUSE when
 *    REDIS_URL names a Redis the bench did not start) for `--freeze` seconds
 *    from the second second: the slowest answer, and every event counted.
 *
 * 4. The report: a campaign sent to `--report-recipients` (20,000) in three
 *    languages with six links, its ledger and bounces, beside earlier
 *    campaigns; as many opens and clicks as recipients each, through the
 *    API, with the events' queue paused; then the worker (started for this
 *    phase only) counts them alone: events counted per second from the
 *    queue's resume to the last batch's end, and the store's commands per
 *    1,000 events. Then the report, its CSV and the campaign list, each
 *    `--report-reads` (100) times one after another as staff, after 10
 *    untimed: p50, p95, p99 and the slowest, the target on the p99.
 *
 * With `--scale N`, the report phase (4) alone, and its cost curve: at
 * `--report-recipients` and at N times it, each on a fresh database with a
 * fresh API and worker: events counted per second, the worker's, the
 * store's and Redis's CPU per event while the worker counts, the report /
 * CSV / campaign list p50s and p99s, and the worker's and API's peak RSS,
 * side by side with their growth. Steps 1-3 do not depend on what is stored.
 *
 * In 1-3, events are counted on the Redis side, in the `campaign-events` jobs
 * the API added (no worker runs then): events counted must equal requests
 * answered, with no id twice. In 4 the report's totals must equal them.
 *
 *   npm run build && npm run bench:track [-- --requests 20000 --bursts 4 --connections 50
 *     --recipients 2000 --freeze 5 --paced-rate 1000 --report-recipients 20000
 *     --report-reads 100 --profile DIR --scale 10]
 * Uses MONGODB_URI / REDIS_URL when set (use throw-away ones), else starts both.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createRequire } from 'node:module';
import autocannon from 'autocannon';
import { startServices } from '../scripts/lib/services.mjs';
import {
  printCostCurve,
  printReport,
  printTable,
  runBench,
  runCleanups,
  wholeNumberOption,
  targetBook,
  until,
} from './lib/bench-steps.mjs';
import { cpuSince, freePort } from './lib/processes.mjs';
import { apiUrlOf, benchAppEnv, signIn, startApi, startWorker } from './lib/stack-processes.mjs';
import {
  readersBurst,
  seedReportCampaign,
  timeCounting,
  timeReportReads,
} from './lib/track-report.mjs';

const root = resolve(import.meta.dirname, '..');
const require = createRequire(join(root, 'backend', 'package.json'));
const { QUEUE_NAMES, withDatabaseName } = require('@agency/contracts');
const platform = require('@agency/platform');
const { values: args } = parseArgs({
  options: {
    requests: { type: 'string', default: '20000' },
    connections: { type: 'string', default: '50' },
    recipients: { type: 'string', default: '2000' },
    bursts: { type: 'string', default: '4' },
    freeze: { type: 'string', default: '5' },
    // The rate at which the answers' p99 is measured, below saturation.
    'paced-rate': { type: 'string', default: '1000' },
    // The report's campaign: recipients, each with an open and a click on average.
    'report-recipients': { type: 'string', default: '20000' },
    // Timed reads of the report, its CSV and the campaign list, each.
    'report-reads': { type: 'string', default: '100' },
    // Writes a V8 CPU profile of the API and the worker into this folder.
    profile: { type: 'string' },
    // The cost curve of the report phase: at --report-recipients and N times it.
    scale: { type: 'string' },
    // Internal: run only the bare Koa app, on this port.
    'hello-port': { type: 'string' },
  },
});
const REQUESTS = Number(args.requests);
const CONNECTIONS = Number(args.connections);
const RECIPIENTS = Number(args.recipients);
const BURSTS = Number(args.bursts);
const FREEZE_SECONDS = Number(args.freeze);
const PACED_RATE = Number(args['paced-rate']);
const REPORT_RECIPIENTS = Number(args['report-recipients']);
const REPORT_READS = Number(args['report-reads']);
const SCALE = wholeNumberOption('scale', args.scale);
// The shared process helper writes each process's CPU profile into this folder.
if (args.profile) process.env.BENCH_CPU_PROF_DIR = resolve(args.profile);
const TARGETS = { ratio: 0.25, p99Ms: 20, frozenMaxMs: 1000, reportMs: 150 };
const BROWSER =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';
const LINKS = ['https://example.com/spring', 'https://example.com/offer', 'https://example.com/'];

/** The bare Koa app's own process: listens on `port`, says so on stdout. */
async function runHello(/** @type {number} */ port) {
  const Koa = require('koa');
  const app = new Koa();
  app.use((/** @type {{ body: string }} */ ctx) => {
    ctx.body = 'hello';
  });
  await new Promise((done) => app.listen(port, '127.0.0.1', () => done(undefined)));
  process.stdout.write('listening\n');
  process.once('SIGTERM', () => process.exit(0));
}

/** The bare Koa app, in a process of its own as the API is. */
async function startHello() {
  const port = await freePort();
  const child = spawn(process.execPath, [import.meta.filename, '--hello-port', String(port)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise((listening, failed) => {
    child.once('exit', (code) => failed(new Error(`the Koa hello exited ${code}`)));
    child.stdout.once('data', () => listening(undefined));
  });
  return {
    url: `http://127.0.0.1:${port}/`,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((done) => child.once('exit', done));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/**
 * A sent campaign in the store (its key and link table, as the send stores
 * them) and its recipients' open and click tokens, signed as the worker signs.
 * @param {import('mongodb').Db} db @param {string} mailLinkSecret @param {string} name
 */
async function sentCampaign(db, mailLinkSecret, name) {
  const key = platform.newCampaignTrackingKey();
  const { insertedId } = await db.collection('campaigns').insertOne({
    name,
    subject: 'Spring offer',
    content: '<p>Hi</p>',
    status: 'sent',
    tracking: {
      opens: true,
      clicks: true,
      mode: 'anonymous',
      key,
      keyDestroyedAt: null,
      links: LINKS,
    },
    createdAt: new Date(),
    updatedAt: new Date(),
  });
  const tokenKey = platform.trackingTokenKey(mailLinkSecret);
  // Sent an hour ago: the opens and clicks are people's, as most are.
  const sentAt = new Date(Math.floor(Date.now() / 1000 - 3600) * 1000);
  const mails = Array.from({ length: RECIPIENTS }, (_, index) => ({
    campaignId: insertedId.toHexString(),
    recipientKey: platform.recipientKeyOf(key, `reader${index}@bench.example`),
    locale: 'en',
    source: 0,
    sentAt,
  }));
  return {
    campaignId: insertedId.toHexString(),
    opens: mails.map((mail) => `/api/t/o/${platform.signOpenToken(tokenKey, mail)}`),
    clicks: mails.map(
      (mail, index) =>
        `/api/t/c/${platform.signClickToken(tokenKey, { ...mail, linkIndex: index % LINKS.length })}`,
    ),
  };
}

/**
 * Requests the paths in turn: `amount` in all, `connections` at once
 * (saturation), or paced at `overallRate` requests per second.
 * @param {string} url @param {string[]} paths
 * @param {{ amount: number, connections?: number, overallRate?: number }} size
 */
async function burst(url, paths, size) {
  let next = 0;
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    ...size,
    headers: { 'user-agent': BROWSER },
    requests: [
      {
        method: 'GET',
        setupRequest: (request) => {
          next = (next + 1) % paths.length;
          return { ...request, path: paths[next] };
        },
      },
    ],
  });
  const answered = result['2xx'] + result['3xx'];
  return {
    answered,
    failed: result.non2xx - result['3xx'] + result.errors + result.timeouts,
    rate: answered / result.duration,
    seconds: result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    max: result.latency.max,
  };
}

/**
 * Several bursts as one: the rate over their time, the worst of their p50s and p99s.
 * @param {Awaited<ReturnType<typeof burst>>[]} runs
 */
function combined(runs) {
  const sum = (/** @type {(run: (typeof runs)[number]) => number} */ of) =>
    runs.reduce((total, run) => total + of(run), 0);
  const worst = (/** @type {(run: (typeof runs)[number]) => number} */ of) =>
    Math.max(...runs.map(of));
  const answered = sum((run) => run.answered);
  return {
    answered,
    failed: sum((run) => run.failed),
    rate: answered / sum((run) => run.seconds),
    seconds: sum((run) => run.seconds),
    p50: worst((run) => run.p50),
    p99: worst((run) => run.p99),
    max: worst((run) => run.max),
  };
}

/**
 * `REQUESTS` opens and as many clicks in `BURSTS` bursts each, every burst
 * next to one of the bare Koa app, so that the machine's load (shared with
 * the load generator, and with whatever else runs) weighs on both alike.
 * @param {string} apiUrl @param {string} helloUrl @param {{ opens: string[], clicks: string[] }} campaign
 */
async function interleavedBursts(apiUrl, helloUrl, campaign) {
  const size = { amount: Math.ceil(REQUESTS / BURSTS) };
  /** @type {Record<'koa' | 'opens' | 'clicks', Awaited<ReturnType<typeof burst>>[]>} */
  const runs = { koa: [], opens: [], clicks: [] };
  for (let round = 0; round < BURSTS; round += 1) {
    runs.koa.push(await burst(helloUrl, ['/'], size));
    runs.opens.push(await burst(apiUrl, campaign.opens, size));
    runs.koa.push(await burst(helloUrl, ['/'], size));
    runs.clicks.push(await burst(apiUrl, campaign.clicks, size));
  }
  return { koa: combined(runs.koa), opens: combined(runs.opens), clicks: combined(runs.clicks) };
}

/**
 * The events of one campaign in the `campaign-events` jobs, how many ids came twice, in how many jobs.
 * @param {import('bullmq').Queue} queue @param {string} campaignId
 */
async function eventsInRedis(queue, campaignId) {
  const jobs = await queue.getJobs([
    'waiting',
    'paused',
    'active',
    'delayed',
    'completed',
    'failed',
  ]);
  const ids = new Set();
  let events = 0;
  let batches = 0;
  for (const job of jobs) {
    const mine = job.data.events.filter(
      (/** @type {{ campaignId: string }} */ event) => event.campaignId === campaignId,
    );
    if (mine.length > 0) batches += 1;
    events += mine.length;
    for (const event of mine) ids.add(event.id);
  }
  return { events, twice: events - ids.size, batches };
}

/**
 * The campaign's events once Redis holds as many as were answered (or after a minute).
 * @param {import('bullmq').Queue} queue @param {string} campaignId @param {number} answered
 */
async function counted(queue, campaignId, answered) {
  const enough = async () => (await eventsInRedis(queue, campaignId)).events >= answered;
  await until(enough, 60_000, 250).catch(() => undefined);
  return eventsInRedis(queue, campaignId);
}

/**
 * Freezes Redis from `afterSeconds` for `seconds`: SIGSTOP of the bench's own
 * server (a hung process: the socket stays open, nothing answers), else CLIENT PAUSE.
 * @param {{ pid?: number, redisUrl: string }} redis @param {number} afterSeconds @param {number} seconds
 */
async function freezeRedisLater({ pid, redisUrl }, afterSeconds, seconds) {
  const sleep = (/** @type {number} */ s) => new Promise((done) => setTimeout(done, s * 1000));
  await sleep(afterSeconds);
  if (pid) {
    process.kill(pid, 'SIGSTOP');
    await sleep(seconds);
    process.kill(pid, 'SIGCONT');
    return;
  }
  const { Redis } = require('ioredis');
  const admin = new Redis(redisUrl);
  await admin.call('CLIENT', 'PAUSE', String(seconds * 1000), 'ALL');
  admin.disconnect();
  await sleep(seconds);
}

/**
 * The throw-away stores (MongoDB-wire and Redis), or those the environment names.
 * @param {(() => unknown)[]} cleanups
 */
async function startStores(cleanups) {
  const dataDir = mkdtempSync(join(tmpdir(), 'agency-bench-track-'));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const services = await startServices({ dataDir, mailCatcher: false });
  cleanups.push(services.stop);
  return { dataDir, services };
}

/**
 * The API on a fresh database and queue prefix in the stores; a connection
 * to that database and to the events' queue.
 * @param {Awaited<ReturnType<typeof startStores>>} stores @param {(() => unknown)[]} cleanups
 */
async function startApp({ dataDir, services }, cleanups) {
  const stamp = `${Date.now()}`;
  const mongodbUri = withDatabaseName(services.mongodbUri, `bench_${stamp}`);
  const mailLinkSecret = randomBytes(32).toString('hex');
  const where = { dataDir, mongodbUri, redisUrl: services.redisUrl, queuePrefix: `bench${stamp}` };
  // No mail is sent: the SMTP address is never used.
  const apiPlace = { apiPort: await freePort(), smtpUrl: 'smtp://127.0.0.1:1' };
  const env = benchAppEnv({ ...where, ...apiPlace }, { MAIL_LINK_SECRET: mailLinkSecret });

  const mongoose = require('mongoose');
  const store = await mongoose.createConnection(mongodbUri).asPromise();
  cleanups.push(() => store.close());
  const { Queue } = require('bullmq');
  const { Redis } = require('ioredis');
  const connection = new Redis(services.redisUrl, { maxRetriesPerRequest: null });
  cleanups.push(() => connection.disconnect());
  const queue = new Queue(QUEUE_NAMES.campaignEvents, { connection, prefix: where.queuePrefix });
  cleanups.push(() => queue.close());

  const api = startApi(env);
  cleanups.push(api.stop);
  await api.healthy();
  /** @type {import('mongodb').Db} */
  const db = store.db;
  return { db, mailLinkSecret, queue, api, apiUrl: apiUrlOf(env), env, services, cleanups };
}

/**
 * The stores, the API and the bare Koa app.
 * @param {(() => unknown)[]} cleanups
 */
async function startStack(cleanups) {
  const stores = await startStores(cleanups);
  const hello = await startHello();
  cleanups.push(hello.stop);
  const app = await startApp(stores, cleanups);
  const redis = {
    pid: stores.services.started.find(({ name }) => name === 'redis')?.pid,
    redisUrl: stores.services.redisUrl,
  };
  return { ...app, hello, redis };
}

/** @param {Awaited<ReturnType<typeof startStack>>} stack */
async function measure(stack) {
  const { db, mailLinkSecret, queue, hello, apiUrl, redis } = stack;
  const warm = await sentCampaign(db, mailLinkSecret, 'Warm-up');
  const steady = await sentCampaign(db, mailLinkSecret, 'Steady');
  const frozen = await sentCampaign(db, mailLinkSecret, 'Frozen');
  // Warm-up: the JIT, and the API's first read of each campaign's link table.
  const firstReads = [steady.opens[0], steady.clicks[0], frozen.clicks[0]];
  await Promise.all(firstReads.map((path) => fetch(`${apiUrl}${path}`, { redirect: 'manual' })));
  await burst(apiUrl, [...warm.opens, ...warm.clicks], { amount: 10_000 });
  await burst(hello.url, ['/'], { amount: 4000 });
  const before = {
    steady: (await counted(queue, steady.campaignId, 2)).events,
    frozen: (await counted(queue, frozen.campaignId, 1)).events,
  };

  const { koa, opens, clicks } = await interleavedBursts(apiUrl, hello.url, steady);
  const paced = { amount: PACED_RATE * 5, connections: 10, overallRate: PACED_RATE };
  const koaPaced = await burst(hello.url, ['/'], paced);
  const opensPaced = await burst(apiUrl, steady.opens, paced);
  const clicksPaced = await burst(apiUrl, steady.clicks, paced);
  const answered = opens.answered + clicks.answered + opensPaced.answered + clicksPaced.answered;
  const steadyCount = await counted(queue, steady.campaignId, before.steady + answered);

  // Twice the steady burst, so that it outlasts the freeze at the steady rate.
  const [frozenClicks] = await Promise.all([
    burst(apiUrl, frozen.clicks, { amount: REQUESTS * 2 }),
    freezeRedisLater(redis, 2, FREEZE_SECONDS),
  ]);
  const frozenCount = await counted(
    queue,
    frozen.campaignId,
    before.frozen + frozenClicks.answered,
  );
  return {
    koa,
    opens,
    clicks,
    koaPaced,
    opensPaced,
    clicksPaced,
    steady: { ...steadyCount, events: steadyCount.events - before.steady, answered },
    frozenClicks,
    frozen: { ...frozenCount, events: frozenCount.events - before.frozen },
  };
}

/**
 * The report's phase: the worker counts a campaign's events alone (one open
 * and one click per recipient on average), then staff read the report, its
 * CSV and the list. With the CPU each process spent counting, and the
 * worker's and API's peak RSS over the phase.
 * @param {Awaited<ReturnType<typeof startApp>>} app @param {number} recipients
 */
async function measureReport(app, recipients) {
  const { db, mailLinkSecret, queue, api, apiUrl, env, services, cleanups } = app;
  // The phases before checked their batches: the worker is to count this campaign's only.
  await queue.obliterate({ force: true });
  const campaign = await seedReportCampaign(db, mailLinkSecret, recipients);
  // Paused through the burst, so that the worker counts with the machine to itself.
  await queue.pause();
  const worker = startWorker('worker', env);
  cleanups.push(worker.stop);
  await until(async () => (await queue.getWorkersCount()) > 0, 60_000);
  api.resetPeakRss();
  const readers = await readersBurst(apiUrl, campaign.requests, CONNECTIONS);
  const inRedis = await counted(queue, campaign.campaignId, readers.answered);
  const countingCpu = cpuSince([{ name: 'worker', pid: worker.pid }, ...services.started]);
  const counting = await timeCounting(queue, db);
  const cpu = countingCpu();
  const headers = await signIn(apiUrl);
  const reads = await timeReportReads(apiUrl, campaign.campaignId, headers, {
    times: REPORT_READS,
    warmUp: 10,
  });
  const peakRss = { worker: worker.peakRssMb(), api: api.peakRssMb() };
  return { recipients, campaign, readers, inRedis, counting, cpu, reads, peakRss };
}

const ms = (/** @type {number} */ value) => `${value.toFixed(1)} ms`;
const perSecond = (/** @type {number} */ value) => `${Math.round(value)} req/s`;

/** @param {Awaited<ReturnType<typeof measure>>} figures @param {ReturnType<typeof targetBook>['check']} check */
function rowsOf(figures, check) {
  const { koa, opens, clicks, koaPaced, opensPaced, clicksPaced, steady } = figures;
  const { frozenClicks, frozen } = figures;
  const ratio = (/** @type {string} */ name, /** @type {number} */ rate) =>
    check(name, rate / koa.rate >= TARGETS.ratio, `>= ${TARGETS.ratio}x`);
  const p99 = (/** @type {string} */ name, /** @type {number} */ value) =>
    check(name, value < TARGETS.p99Ms, `< ${TARGETS.p99Ms} ms`);
  const saturated = (/** @type {Awaited<ReturnType<typeof burst>>} */ run) =>
    `p50 ${ms(run.p50)}, p99 ${ms(run.p99)}, ${run.failed} failed`;
  return [
    ['bare Koa "hello"', perSecond(koa.rate), saturated(koa)],
    ['open pixel', perSecond(opens.rate), saturated(opens)],
    [
      'open pixel / hello',
      `${(opens.rate / koa.rate).toFixed(2)}x`,
      ratio('pixel ratio', opens.rate),
    ],
    ['redirect', perSecond(clicks.rate), saturated(clicks)],
    [
      'redirect / hello',
      `${(clicks.rate / koa.rate).toFixed(2)}x`,
      ratio('redirect ratio', clicks.rate),
    ],
    [`p99 at ${PACED_RATE} req/s: hello`, ms(koaPaced.p99), `p50 ${ms(koaPaced.p50)}`],
    [`p99 at ${PACED_RATE} req/s: pixel`, ms(opensPaced.p99), p99('pixel p99', opensPaced.p99)],
    [
      `p99 at ${PACED_RATE} req/s: redirect`,
      ms(clicksPaced.p99),
      p99('redirect p99', clicksPaced.p99),
    ],
    [
      'events in Redis / requests answered',
      `${steady.events} / ${steady.answered}`,
      `${steady.twice} twice, ${steady.batches} jobs; ${check(
        'events counted',
        steady.events === steady.answered && steady.twice === 0,
        'equal, none twice',
      )}`,
    ],
    [
      `redirect, Redis frozen ${FREEZE_SECONDS} s`,
      perSecond(frozenClicks.rate),
      `${frozenClicks.answered} answered, ${saturated(frozenClicks)}`,
    ],
    [
      'slowest redirect while frozen',
      ms(frozenClicks.max),
      check('frozen max', frozenClicks.max < TARGETS.frozenMaxMs, `< ${TARGETS.frozenMaxMs} ms`),
    ],
    [
      'events in Redis after the thaw / answered',
      `${frozen.events} / ${frozenClicks.answered}`,
      `${frozen.twice} twice; ${check(
        'frozen events counted',
        frozen.events === frozenClicks.answered && frozen.twice === 0,
        'equal, none twice',
      )}`,
    ],
  ];
}

/**
 * Whether the report holds every event answered once: each open is a
 * person's or a machine's (an implied open is a person's too, with no
 * request), each click a person's or a scanner's.
 * @param {any} report @param {number} answered
 */
function reportTotals(report, answered) {
  const opens = report.opens.people.total - report.opens.implied + report.opens.machines.total;
  const clicks = report.clicks.people.total + report.clicks.scanners.total;
  return { events: opens + clicks, equal: opens + clicks === answered };
}

/** @param {Awaited<ReturnType<typeof measureReport>>} figures @param {ReturnType<typeof targetBook>['check']} check */
function reportRowsOf({ recipients, campaign, readers, inRedis, counting, reads }, check) {
  const report = JSON.parse(reads.report.body);
  const totals = reportTotals(report, readers.answered);
  const { opens, clicks } = report;
  const within = (/** @type {string} */ name, /** @type {{ p99: number }} */ read) =>
    check(name, read.p99 <= TARGETS.reportMs, `p99 <= ${TARGETS.reportMs} ms`);
  const timed = (/** @type {{ p50: number, p95: number, p99: number, max: number }} */ read) =>
    `p50 ${ms(read.p50)}, p95 ${ms(read.p95)}, p99 ${ms(read.p99)}, max ${ms(read.max)}`;
  const writes = ['insert', 'update', 'delete', 'findAndModify'].reduce(
    (sum, name) => sum + (counting.commands[name] ?? 0),
    0,
  );
  const reads1000 = ['find', 'getMore', 'aggregate'].reduce(
    (sum, name) => sum + (counting.commands[name] ?? 0),
    0,
  );
  const per1000 = (/** @type {number} */ n) =>
    ((n * 1000) / Math.max(1, counting.counted)).toFixed(1);
  return [
    [
      `report campaign: recipients / events answered`,
      `${recipients} / ${readers.answered}`,
      `${campaign.links} links, en/fr/ar, ${campaign.mailEvents} bounces and complaints, ${readers.failed} failed, ${Math.round(readers.rate)} req/s`,
    ],
    [
      'worker: events counted / in Redis',
      `${counting.counted} / ${inRedis.events}`,
      `${counting.repeated} again, ${counting.failed} failed, ${counting.batches} batches; ${check(
        'report events counted',
        counting.counted === inRedis.events && inRedis.twice === 0,
        'equal',
      )}`,
    ],
    [
      'worker: events counted per second',
      `${Math.round(counting.counted / counting.seconds)} events/s`,
      `${counting.seconds.toFixed(1)} s from the resume to the last count, ${ms(counting.busyMsPerBatch)} a batch of ${Math.round(counting.counted / Math.max(1, counting.batches))}`,
    ],
    [
      'store commands per 1,000 events: writes',
      per1000(writes),
      `a bulk write of up to 50 statements is one; reads ${per1000(reads1000)} (${Object.entries(
        counting.commands,
      )
        .filter(([, n]) => n > 0)
        .map(([name, n]) => `${name} ${n}`)
        .join(', ')})`,
    ],
    [
      'report: opens / clicks (people, machines)',
      `${opens.people.unique} + ${opens.machines.unique} / ${clicks.people.unique} + ${clicks.scanners.unique} unique`,
      `totals ${totals.events} of ${readers.answered} events; ${check('report totals', totals.equal, 'equal')}`,
    ],
    [
      `GET report (${REPORT_READS} reads)`,
      ms(reads.report.p99),
      `${timed(reads.report)}; ${within('report', reads.report)}`,
    ],
    [
      `GET report CSV (${REPORT_READS} reads)`,
      ms(reads.reportExport.p99),
      `${timed(reads.reportExport)}; ${within('report CSV', reads.reportExport)}`,
    ],
    [
      `GET campaign list, 20 with rates (${REPORT_READS} reads)`,
      ms(reads.list.p99),
      `${timed(reads.list)}; ${within('campaign list', reads.list)}`,
    ],
  ];
}

/**
 * The report phase's cost per event at one size.
 * @param {Awaited<ReturnType<typeof measureReport>>} figures
 */
function reportCostOf({ counting, cpu, reads, peakRss }) {
  const perEvent = (/** @type {number} */ seconds) =>
    Math.round((seconds * 1e6) / Math.max(1, counting.counted));
  const { worker, redis, ...store } = cpu;
  const storeSeconds = Object.values(store).reduce((sum, seconds) => sum + seconds, 0);
  return {
    'events counted per second': Math.round(counting.counted / counting.seconds),
    'worker CPU µs/event': perEvent(worker ?? 0),
    'store CPU µs/event': perEvent(storeSeconds),
    'Redis CPU µs/event': perEvent(redis ?? 0),
    'report p50 ms': Number(reads.report.p50.toFixed(1)),
    'report p99 ms': Number(reads.report.p99.toFixed(1)),
    'report CSV p50 ms': Number(reads.reportExport.p50.toFixed(1)),
    'report CSV p99 ms': Number(reads.reportExport.p99.toFixed(1)),
    'campaign list p50 ms': Number(reads.list.p50.toFixed(1)),
    'campaign list p99 ms': Number(reads.list.p99.toFixed(1)),
    'worker peak RSS MB': Math.round(peakRss.worker),
    'API peak RSS MB': Math.round(peakRss.api),
  };
}

/**
 * The cost curve: the report phase alone at --report-recipients and at
 * --scale times it, each on a fresh database with a fresh API and worker.
 * @param {(() => unknown)[]} cleanups
 */
async function costCurve(cleanups) {
  const stores = await startStores(cleanups);
  const { missed, check } = targetBook();
  const sizes = [];
  for (const recipients of [REPORT_RECIPIENTS, REPORT_RECIPIENTS * SCALE]) {
    console.log(`the report of ${recipients} recipients...`);
    /** @type {(() => unknown)[]} */
    const appCleanups = [];
    try {
      const figures = await measureReport(await startApp(stores, appCleanups), recipients);
      sizes.push(figures);
      // Printed at once too: a long run's figures outlive a later size's failure.
      printTable(`bench:track, the report of ${recipients}`, reportRowsOf(figures, check));
    } finally {
      await runCleanups(appCleanups);
    }
  }
  const [small, large] = sizes;
  if (!small || !large) return;
  printCostCurve(
    `Cost curve: the report phase at ${REPORT_RECIPIENTS} (1x) and ${REPORT_RECIPIENTS * SCALE} recipients (${SCALE}x); CPU while the worker counts`,
    SCALE,
    reportCostOf(small),
    reportCostOf(large),
  );
  console.log(missed.length === 0 ? 'targets: all met' : `targets MISSED: ${missed.join(', ')}`);
}

async function main() {
  if (!existsSync(join(root, 'backend/dist/server.js'))) {
    throw new Error('backend/dist/server.js is missing: run npm run build first');
  }
  /** @type {(() => unknown)[]} */
  const cleanups = [];
  try {
    if (SCALE > 1) {
      await costCurve(cleanups);
      return;
    }
    const stack = await startStack(cleanups);
    const figures = await measure(stack);
    const reportFigures = await measureReport(stack, REPORT_RECIPIENTS);
    const { missed, check } = targetBook();
    const title = `bench:track: ${REQUESTS} opens and ${REQUESTS} clicks, ${CONNECTIONS} connections, ${RECIPIENTS} recipients; the report of ${REPORT_RECIPIENTS}`;
    const rows = [...rowsOf(figures, check), ...reportRowsOf(reportFigures, check)];
    printReport(title, rows, missed);
  } finally {
    await runCleanups(cleanups);
  }
}

if (args['hello-port']) await runHello(Number(args['hello-port']));
else runBench(main);
