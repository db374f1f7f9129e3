// @ts-check
/**
 * `npm run bench:mail`: a campaign to 20,000 recipients through the real API,
 * queue and worker processes into a local SMTP sink, against the campaign's
 * own send path alone in the same run: the worker's compiled MIME frame and
 * pooled SMTP connections in one process, no queue, ledger or store. Compare
 * ratios within one run: the machine's load moves absolute numbers. The send
 * path alone runs once before the campaign and once after it, and the ratios
 * are to the mean of the two: the machine's speed drifts over the minute
 * between them.
 *
 * Prints the delivery rate (from the send request to the last message, and
 * first to last message at the sink) and its ratio to the send path alone,
 * how soon the first mail goes, the dispatch's rate, the workers' peak RSS
 * (VmHWM), the CPU each part spends per message, and the duplicates and
 * missing recipients counted from the sink's RCPT TO log, with the targets.
 * The dashboard's progress route is polled every 250 ms during the send, as
 * the dashboard polls it, and each answer timed: p50 / p99 / max (target:
 * p99 within 150 ms). A plain pooled Nodemailer loop into the same sink is
 * shown for context.
 *
 *   npm run build && npm run bench:mail [-- --recipients 20000 --workers 2
 *     --concurrency 20 --batch 200 --batches-in-flight 4 --connections 20
 *     --ref-connections 10 --content-kb 0 --sink raw --peer --scale 10]
 * --peer first sends one campaign with listmonk v6.2.0, the peer (its folder
 * from LISTMONK_PEER_DIR, by default ../shared/peers/listmonk beside the
 * repository; run.sh there needs root), into listmonk's own sink (sink.js,
 * smtp-server), then everything of this bench into that same sink process,
 * and compares: both rates (first to last, send request to last), both CPU
 * per mail (ours: workers + store + Redis; listmonk's: listmonk + Postgres,
 * from its run's counters), both average mail sizes, with the targets. When
 * the peer is absent or cannot run, a note says so and the rest runs.
 * --scale N sends the campaign again to N times --recipients, in a fresh
 * database (the send path alone and the reference loop are not run again),
 * and prints the cost curve of both sizes: time and CPU per mail (workers,
 * store, Redis), workers' peak RSS, the store's peak RSS in each phase,
 * duplicates, missing, progress answer times, with the growth; targets at N times: CPU per mail at most 1.1x,
 * the same RSS caps, 0 duplicates and missing, progress p99 within 150 ms.
 * Each phase is printed as it starts; past STORE_RSS_LIMIT_MB (default 4096)
 * of store RSS a campaign run stops, naming its phase (the machine is shared).
 * --concurrency is the mails in flight per worker process (CAMPAIGN_CONCURRENCY),
 * --batches-in-flight the send jobs each runs at once (CAMPAIGN_BATCHES_IN_FLIGHT).
 * --content-kb grows the newsletter's HTML to about that many KB (a real
 * newsletter is often 20-60 KB; the default is a short one).
 * --sink smtp-server receives with smtp-server instead of the bench's lean
 * server (lib/raw-smtp-sink.mjs), as figures before 2026-11-27 were measured:
 * the sink stands for the receiving servers, and on a machine of two cores it
 * shares the campaign's cores, so its own cost is kept low.
 * Uses MONGODB_URI / REDIS_URL when set (use throw-away ones), else starts both.
 * The workers get the heap cap of WORKER_HEAP_MB (default 112), as under npm start.
 */
import { randomBytes } from 'node:crypto';
import { fork } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createRequire } from 'node:module';
import { workerProcessEnv } from '../scripts/lib/app-env.mjs';
import { startServices } from '../scripts/lib/services.mjs';
import {
  printReport,
  printTable,
  runBench,
  runCleanups,
  targetBook,
  until,
} from './lib/bench-steps.mjs';
import {
  peerDir,
  peerUnavailable,
  runListmonkCampaign,
  startPeerSink,
} from './lib/listmonk-peer.mjs';
import {
  cpuSecondsOf,
  freePort,
  hostCpuTimes,
  peakRssMbOf,
  resetPeakRssOf,
  rssMbOf,
  stolenPercent,
} from './lib/processes.mjs';
import { commandsPer, commandsSince, storeCommands } from './lib/store-commands.mjs';
import { apiUrlOf, benchAppEnv, signIn, startApi, startWorker } from './lib/stack-processes.mjs';

const root = resolve(import.meta.dirname, '..');
const require = createRequire(join(root, 'worker', 'package.json'));
const {
  API_ROUTES,
  CONTACT_CONSENT_SOURCE,
  CONTACT_CONSENT_WORDING_VERSION,
  QUEUE_NAMES,
  apiPath,
  withDatabaseName,
} = require('@agency/contracts');
const { values: args } = parseArgs({
  options: {
    recipients: { type: 'string', default: '20000' },
    workers: { type: 'string', default: '2' },
    concurrency: { type: 'string', default: '20' },
    batch: { type: 'string', default: '200' },
    'batches-in-flight': { type: 'string', default: '4' },
    connections: { type: 'string', default: '' },
    'ref-connections': { type: 'string', default: '10' },
    'content-kb': { type: 'string', default: '0' },
    sink: { type: 'string', default: 'raw' },
    peer: { type: 'boolean', default: false },
    scale: { type: 'string', default: '1' },
  },
});
const RECIPIENTS = Number(args.recipients);
const WORKERS = Number(args.workers);
const REF_CONNECTIONS = Number(args['ref-connections']);
const SINK = args.sink === 'smtp-server' ? 'smtp-server' : 'raw';
const SCALE = Math.max(1, Math.round(Number(args.scale)) || 1);
/** The workers' NODE_OPTIONS and allocator settings, as the title shows them. */
function workerSettings() {
  const { NODE_OPTIONS, ...allocator } = workerProcessEnv(process.env);
  return [
    NODE_OPTIONS,
    ...Object.entries(allocator).map(([name, value]) => `${name}=${value}`),
  ].join(' ');
}

/**
 * The campaign against its own send path in the same run, and listmonk's
 * single process's memory; against listmonk in the same sink (rates, CPU per
 * mail); the dashboard's progress during the send; and at --scale times the
 * recipients, the CPU per mail's growth.
 */
const TARGETS = {
  startToLast: 0.8,
  firstToLast: 0.9,
  rssMb: 150,
  allRssMb: 250,
  peerFirstToLast: 1.2,
  peerStartToLast: 1.5,
  peerCpu: 2,
  progressMs: 150,
  scaleCpuGrowth: 0.1,
};
const SHORT_CONTENT =
  '<h1>Our spring packages</h1><p>Dear {{firstName}},</p>' +
  '<p>This season we help small businesses grow on Facebook, Instagram and TikTok: ' +
  'ten visuals and two videos a month, two Meta Ads campaigns and a simple monthly report.</p>' +
  '<p><a href="https://agency.example/packs">See the packs</a></p>';
const CONTENT = grownTo(SHORT_CONTENT, Number(args['content-kb']));

/** The content with paragraphs added until it is about `kb` KB long (0 keeps it as it is). */
function grownTo(/** @type {string} */ content, /** @type {number} */ kb) {
  const paragraph =
    '<p>Every month we plan, shoot and publish your posts, answer your community ' +
    'and report what worked, with the figures that matter to your business.</p>';
  const count = Math.max(0, Math.ceil((kb * 1024 - content.length) / paragraph.length));
  return content + paragraph.repeat(count);
}

for (const file of ['backend/dist/server.js', 'worker/dist/index.js']) {
  if (!existsSync(join(root, file))) {
    console.error(`${file} is missing: run npm run build first`);
    process.exit(1);
  }
}

/** @typedef {import('./lib/listmonk-peer.mjs').SinkReport} SinkReport */
/**
 * A sink the bench sends into: the bench's own (a child process over IPC) or listmonk's.
 * @typedef {{ url: string, name: string, report: () => Promise<SinkReport>,
 *   reset: () => Promise<unknown>, close: () => unknown }} Sink
 */

async function startSink() {
  const child = fork(join(root, 'bench', 'mail-sink.mjs'), [SINK], { stdio: 'inherit' });
  /** @param {string} type @returns {Promise<any>} */
  const ask = (type) =>
    new Promise((done) => {
      const onMessage = (/** @type {{ type: string }} */ message) => {
        if (message.type !== type) return;
        child.off('message', onMessage);
        done(message);
      };
      child.on('message', onMessage);
      if (type !== 'ready') child.send({ type });
    });
  const { port } = await ask('ready');
  /** @type {Sink} */
  return {
    url: `smtp://127.0.0.1:${port}`,
    name: SINK === 'raw' ? "the bench's lean sink" : 'smtp-server',
    /** @returns {Promise<SinkReport>} */
    report: () => ask('report'),
    reset: () => ask('reset'),
    close: () => {
      child.disconnect();
    },
  };
}

const email = (/** @type {number} */ index) => `r${index}@bench.example`;

/**
 * Duplicates and missing among the `expected` recipients, from the sink's
 * RCPT TO log (or, from listmonk's sink, its unique and duplicate counts).
 * @param {SinkReport} report @param {number} expected
 */
function tally(report, expected) {
  if (!report.rcpt) {
    return { duplicates: report.duplicates ?? 0, missing: expected - (report.unique ?? 0) };
  }
  const counts = new Map(report.rcpt);
  let duplicates = 0;
  for (const count of counts.values()) duplicates += Math.max(count - 1, 0);
  let missing = 0;
  for (let index = 0; index < expected; index += 1) if (!counts.has(email(index))) missing += 1;
  return { duplicates, missing };
}

/** The reference: one process, a pooled transport, every message through sendMail. */
async function referenceLoop(/** @type {string} */ smtpUrl) {
  const nodemailer = require('nodemailer');
  const transport = nodemailer.createTransport(
    `${smtpUrl}?pool=true&maxConnections=${REF_CONNECTIONS}&maxMessages=10000`,
  );
  const started = performance.timeOrigin + performance.now();
  let next = 0;
  const sender = async () => {
    while (next < RECIPIENTS) {
      const index = next++;
      await transport.sendMail({
        from: 'Agency <no-reply@agency.local>',
        to: email(index),
        subject: `Hello Contact ${index}`,
        html: CONTENT.replace('{{firstName}}', `Contact ${index}`),
        text: `Dear Contact ${index}, our spring packages are here.`,
      });
    }
  };
  await Promise.all(Array.from({ length: REF_CONNECTIONS * 2 }, sender));
  transport.close();
  return started;
}

/**
 * The campaign's own send path with nothing around it: in this process, the
 * worker's compiled MIME frame and its pooled SMTP transport (the same code
 * and settings as one worker process) send the campaign's mail to every
 * recipient, without the queue, the ledger or the store. What is left of the
 * campaign's time beyond this is theirs.
 */
async function sendPathAlone(/** @type {string} */ smtpUrl) {
  const {
    createCampaignTransport,
    createSmtpCampaignMessenger,
  } = require('./dist/campaigns/index.js');
  const {
    campaignMessageId,
    mailIdentityKey,
    newCampaignTrackingKey,
  } = require('@agency/platform');
  const identityKey = mailIdentityKey('bench-mail-link-secret-of-32-chars!');
  const inFlight = Number(args.concurrency);
  const messenger = createSmtpCampaignMessenger({
    transport: createCampaignTransport(smtpUrl, Number(args.connections || inFlight)),
    mailFrom: 'Agency <no-reply@agency.local>',
    siteUrl: 'http://localhost:8080',
    mailLinkSecret: randomBytes(48).toString('base64url'),
  });
  // As the store hands a campaign to the messenger: one language, the built-in
  // template, and tracked as the campaign below is (the agency's defaults).
  const { DEFAULT_TEMPLATE } = require('@agency/contracts');
  const mail = {
    defaultLocale: /** @type {const} */ ('en'),
    languages: { en: { subject: 'Hello {{firstName}}', content: CONTENT } },
    template: DEFAULT_TEMPLATE,
  };
  const campaign = messenger.prepare(mail, {
    tracking: {
      campaignId: '0123456789abcdef01234567',
      key: newCampaignTrackingKey(),
      opens: true,
      clicks: true,
      links: messenger.trackedLinks(mail),
    },
  });
  const started = performance.timeOrigin + performance.now();
  const cpu = process.cpuUsage();
  let next = 0;
  const sender = async () => {
    while (next < RECIPIENTS) {
      const index = next++;
      const recipient = { email: email(index), firstName: `Contact ${index}`, locale: 'en' };
      await campaign.send(
        recipient,
        campaignMessageId(identityKey, 'bench', 1, recipient.email, 'agency.local'),
      );
    }
  };
  await Promise.all(Array.from({ length: inFlight }, sender));
  await messenger.close();
  const used = process.cpuUsage(cpu);
  return { started, cpuMicros: used.user + used.system };
}

/**
 * The send path alone into an empty sink: its rate from its start to its
 * last message, and the CPU per message of the sender and of the sink.
 * @param {Sink} sink
 */
async function measureSendPathAlone(sink) {
  await sink.reset();
  const host = hostCpuTimes();
  const alone = await sendPathAlone(sink.url);
  const stolen = stolenPercent(host, hostCpuTimes());
  const report = await sink.report();
  await sink.reset();
  return {
    stolen,
    rate: report.accepted / ((report.lastAt - alone.started) / 1000),
    senderMicros: alone.cpuMicros / report.accepted,
    sinkMicros: report.cpuMicros / report.accepted,
  };
}

/**
 * Stores `count` recipients as the API stores contacts (with their search
 * keys) whose own mails are done, each with its address for the audience.
 * @param {import('mongodb').Db} db @param {number} count @param {() => void} [check] called between batches
 */
async function storeRecipients(db, count, check = () => undefined) {
  const { withSearchKeys, contactAddressOf, contactFactsOf } = require('@agency/platform');
  const contacts = db.collection('contacts');
  const addresses = db.collection('contactaddresses');
  for (let from = 0; from < count; from += 5000) {
    check();
    const now = new Date();
    const enquiries = Array.from({ length: Math.min(5000, count - from) }, (_, offset) =>
      withSearchKeys({
        firstName: `Contact ${from + offset}`,
        lastName: 'Bench',
        email: email(from + offset),
        service: 'web-design',
        message: 'A bench recipient',
        locale: 'en',
        status: 'new',
        mailState: 'sent',
        acknowledgementState: 'sent',
        // Ticked "send me news": a campaign to enquiry contacts mails only those.
        consent: {
          requestedAt: now,
          locale: 'en',
          source: CONTACT_CONSENT_SOURCE,
          wordingVersion: CONTACT_CONSENT_WORDING_VERSION,
        },
        createdAt: now,
        updatedAt: now,
      }),
    );
    await contacts.insertMany(enquiries);
    // Each with its address for the campaign audience, as the API writes it beside the enquiry.
    await addresses.insertMany(
      enquiries.map((enquiry) => contactAddressOf(contactFactsOf(enquiry))),
    );
  }
}

/**
 * The store's memory while one campaign runs, and the phase it is in (each
 * printed as it starts: a run at 200,000 takes minutes). On a machine shared
 * with others a store whose memory grows without bound would take theirs:
 * past STORE_RSS_LIMIT_MB (default 4096) the run stops, naming the phase.
 * Without a store started here (MONGODB_URI given) nothing is watched.
 * @param {{ name: string, pid: number }[]} started @param {number} count
 */
function storeWatch(started, count) {
  const store = started.find(({ name }) => name === 'ferretdb' || name === 'mongod');
  const limitMb = Number(process.env.STORE_RSS_LIMIT_MB ?? 4096);
  let phase = 'starting';
  return {
    /** @param {string} name */
    enter(name) {
      this.check();
      phase = name;
      console.log(`bench:mail at ${count}: ${name}`);
      // The store's peak from here on is this phase's.
      if (store) resetPeakRssOf(store.pid);
    },
    /** Throws once the store's resident memory is past the limit. */
    check() {
      const rss = store ? rssMbOf(store.pid) : 0;
      if (rss > limitMb) {
        throw new Error(
          `the store's RSS reached ${Math.round(rss)} MB (STORE_RSS_LIMIT_MB ${limitMb}) while ${phase} at ${count} recipients: stopped`,
        );
      }
    },
    /** The phase the campaign is in. */
    phase: () => phase,
    /** The store's peak RSS (VmHWM) in the current phase, in MB; 0 without a store started here. */
    peakMb: () => (store ? peakRssMbOf(store.pid) : 0),
  };
}

/** The value below which `share` of the sorted `values` lie (nearest rank). */
function percentile(/** @type {number[]} */ values, /** @type {number} */ share) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil(share * sorted.length) - 1)] ?? 0;
}

/**
 * @typedef {{ services: Awaited<ReturnType<typeof startServices>>, sink: Sink,
 *   dataDir: string, stamp: number }} Stage
 */

/**
 * One campaign of `count` recipients in a database of its own: the
 * recipients stored, the API and the workers started, the campaign sent
 * through the API as the dashboard sends it, its progress polled (each
 * poll's answer time kept) until it is `sent`; then the API and the workers
 * stop and the database is dropped, so a larger run after it starts clean.
 * @param {Stage} stage @param {number} count
 */
async function measureCampaign({ services, sink, dataDir, stamp }, count) {
  /** @type {(() => unknown)[]} */
  const cleanups = [];
  const watch = storeWatch(services.started, count);
  try {
    await sink.reset();
    watch.enter('storing the recipients');
    const mongodbUri = withDatabaseName(services.mongodbUri, `bench_mail_${stamp}_${count}`);
    const mongoose = require('mongoose');
    await mongoose.connect(mongodbUri);
    cleanups.push(() => mongoose.disconnect());
    cleanups.push(() => mongoose.connection.db.dropDatabase());
    await storeRecipients(mongoose.connection.db, count, () => watch.check());
    const storeStoredRss = watch.peakMb();
    watch.enter('starting the API');

    // The API and the workers.
    const env = benchAppEnv(
      {
        dataDir,
        mongodbUri,
        redisUrl: services.redisUrl,
        queuePrefix: `benchmail${stamp}x${count}`,
        apiPort: await freePort(),
        smtpUrl: sink.url,
      },
      {
        CAMPAIGN_CONCURRENCY: args.concurrency,
        CAMPAIGN_BATCH_SIZE: args.batch,
        CAMPAIGN_BATCHES_IN_FLIGHT: args['batches-in-flight'],
        ...(args.connections ? { CAMPAIGN_SMTP_CONNECTIONS: args.connections } : {}),
      },
    );
    const apiUrl = apiUrlOf(env);
    const api = startApi(env);
    cleanups.push(api.stop);
    await api.healthy();
    const storeApiRss = watch.peakMb();
    watch.enter('starting the workers, waiting for their start-up recount');
    const workers = Array.from({ length: WORKERS }, (_, index) =>
      startWorker(`worker ${index + 1}`, env),
    );
    for (const worker of workers) cleanups.push(worker.stop);
    // The workers are up once each has registered on the send queue.
    const { Queue } = require('bullmq');
    const { Redis } = require('ioredis');
    const connection = new Redis(services.redisUrl, { maxRetriesPerRequest: null });
    cleanups.push(() => connection.disconnect());
    const queue = (/** @type {string} */ name) => {
      const opened = new Queue(name, { connection, prefix: env.QUEUE_PREFIX });
      cleanups.push(() => opened.close());
      return opened;
    };
    const sendQueue = queue(QUEUE_NAMES.campaignSend);
    const dispatchQueue = queue(QUEUE_NAMES.campaignDispatch);
    await until(async () => {
      watch.check();
      return (await sendQueue.getWorkersCount()) >= WORKERS;
    }, 60_000);
    // A new installation recounts the dashboard's figures once at start-up (a
    // pass over every stored contact). Let it end first: the campaign's figures
    // are the campaign's, and the start-up's peak is shown apart.
    const reconcileQueue = queue(QUEUE_NAMES.statsReconcile);
    const recountStarted = performance.now();
    await until(
      async () => {
        watch.check();
        return (await reconcileQueue.getCompletedCount()) >= 1;
      },
      120_000 + count * 2,
    );
    const storeStartupRss = watch.peakMb();
    const recountSeconds = (performance.now() - recountStarted) / 1000;
    // Contacts stored behind the API have no people yet, so the workers fill
    // the people view at start (and run its daily rebuild at once): a pass
    // over every contact. Let it end too, or it runs beside the send; it is
    // timed and its store peak shown apart.
    watch.enter("filling the people view (the workers' start-up)");
    const peopleQueue = queue(QUEUE_NAMES.peopleRebuild);
    const fillStarted = performance.now();
    let idleReadings = 0;
    await until(
      async () => {
        watch.check();
        const counts = await peopleQueue.getJobCounts('active', 'waiting', 'prioritized');
        const idle = Object.values(counts).every((jobs) => jobs === 0);
        // Idle three readings in a row: not between one pass and the next.
        idleReadings = idle ? idleReadings + 1 : 0;
        return idleReadings >= 3;
      },
      // About 4 ms a contact on a quiet machine at 1,000, past 35 ms at 20,000 under load.
      120_000 + count * 100,
      500,
    );
    const fillSeconds = (performance.now() - fillStarted) / 1000;
    const storeFillRss = watch.peakMb();
    const startupRss = Math.max(...workers.map((worker) => worker.peakRssMb()));
    for (const worker of workers) worker.resetPeakRss();
    const workerCpuBefore = workers.reduce((sum, worker) => sum + worker.cpuSeconds(), 0);

    // The campaign, through the API as the dashboard sends it.
    const headers = { 'content-type': 'application/json', ...(await signIn(apiUrl)) };
    const draft = await fetch(`${apiUrl}${API_ROUTES.campaigns}`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        name: 'Bench',
        subject: 'Hello {{firstName}}',
        content: CONTENT,
        recipientType: 'contacts',
      }),
    }).then((response) => response.json());
    watch.enter('sending the campaign');
    // What the servers under the campaign (the store, Redis) spend while it runs.
    const serverCpuBefore = services.started.map(({ pid }) => cpuSecondsOf(pid));
    const commandsBefore = await storeCommands(mongoose.connection.db);
    const hostBefore = hostCpuTimes();
    const sendStarted = performance.timeOrigin + performance.now();
    const sent = await fetch(`${apiUrl}${apiPath(API_ROUTES.campaignSend, { id: draft.id })}`, {
      method: 'POST',
      headers,
    });
    if (sent.status !== 202) throw new Error(`send answered ${sent.status}`);
    // The dashboard's progress, polled as it polls it: how long each answer takes while the send runs.
    const progressUrl = `${apiUrl}${apiPath(API_ROUTES.campaignProgress, { id: draft.id })}`;
    /** @type {number[]} */
    const pollMs = [];
    /** @type {any} */
    let progress;
    await until(
      async () => {
        watch.check();
        const asked = performance.now();
        progress = await fetch(progressUrl, { headers }).then((response) => response.json());
        pollMs.push(performance.now() - asked);
        return ['sent', 'failed'].includes(progress.status);
      },
      15 * 60_000 + count * 10,
      250,
    );
    const campaignStolen = stolenPercent(hostBefore, hostCpuTimes());
    const serverCpu = services.started.map(({ name, pid }, index) => ({
      name,
      seconds: cpuSecondsOf(pid) - (serverCpuBefore[index] ?? 0),
    }));
    const commands = commandsSince(commandsBefore, await storeCommands(mongoose.connection.db));
    const received = await sink.report();
    const dispatch = await dispatchQueue.getJob(`campaign-dispatch-${draft.id}`);
    const peakRss = workers.map((worker) => worker.peakRssMb());
    const storeSendRss = watch.peakMb();
    const workerCpu =
      workers.reduce((sum, worker) => sum + worker.cpuSeconds(), 0) - workerCpuBefore;
    return {
      count,
      sendStarted,
      received,
      tally: tally(received, count),
      progress,
      pollMs,
      campaignStolen,
      serverCpu,
      commands,
      enqueueSeconds: (dispatch.finishedOn - dispatch.processedOn) / 1000,
      startupRss,
      peakRss,
      startupSeconds: { recount: recountSeconds, fill: fillSeconds },
      storeRss: {
        stored: storeStoredRss,
        api: storeApiRss,
        startup: storeStartupRss,
        fill: storeFillRss,
        send: storeSendRss,
      },
      workerCpu,
      apiCpu: api.cpuSeconds(),
    };
  } catch (error) {
    // A wait that gave up says which one.
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`${reason} (while ${watch.phase()} at ${count} recipients)`, { cause: error });
  } finally {
    await runCleanups(cleanups);
  }
}

/** @typedef {Awaited<ReturnType<typeof measureCampaign>>} CampaignFigures */

/** µs of `micros` per message of `count`, rounded. */
const perMessage = (/** @type {number} */ micros, /** @type {number} */ count) =>
  `${Math.round(micros / count)} µs`;

/** What the campaign's own processes spent per message: the workers, the store and Redis (not the sink). */
function campaignCpuMicros(/** @type {CampaignFigures} */ figures) {
  const servers = figures.serverCpu.reduce((sum, { seconds }) => sum + seconds, 0);
  return ((figures.workerCpu + servers) * 1e6) / figures.received.accepted;
}

/** The messages a second over `ms`. */
const rate = (/** @type {number} */ count, /** @type {number} */ ms) =>
  Math.round(count / (ms / 1000));

/** Average size of a message at the sink, in KB, or n/a where the sink does not count bytes. */
const averageKb = (/** @type {SinkReport} */ report) =>
  report.bytes === null ? 'n/a' : `${(report.bytes / report.accepted / 1024).toFixed(1)} KB`;

/**
 * The progress answer times' row: p50 / p99 / max, and the target on p99 (a
 * single slow answer on a shared machine of two cores is the host's, not the API's).
 * @param {CampaignFigures} figures @param {ReturnType<typeof targetBook>['check']} check
 */
function progressRow(figures, check) {
  const p99 = percentile(figures.pollMs, 0.99);
  return [
    `dashboard progress answer time during the send, p50 / p99 / max`,
    `${Math.round(percentile(figures.pollMs, 0.5))} / ${Math.round(p99)} / ${Math.round(Math.max(...figures.pollMs))} ms`,
    `${figures.pollMs.length} polls every 250 ms; ${check(`progress p99 at ${figures.count}`, p99 <= TARGETS.progressMs, `p99 <= ${TARGETS.progressMs} ms`)}`,
  ];
}

/**
 * The campaign against listmonk in the same sink: both rates, both CPU per
 * mail, both mail sizes, with the targets.
 * @param {CampaignFigures} figures @param {import('./lib/listmonk-peer.mjs').PeerResult} peer
 * @param {ReturnType<typeof targetBook>['check']} check
 */
function peerRows(figures, peer, check) {
  const { received, sendStarted } = figures;
  const ours = {
    firstToLast: rate(received.accepted, received.lastAt - received.firstAt),
    startToLast: rate(received.accepted, received.lastAt - sendStarted),
    cpu: campaignCpuMicros(figures),
  };
  const theirs = {
    firstToLast: rate(peer.received_total, (peer.first_to_last_s ?? Infinity) * 1000),
    startToLast: rate(peer.received_total, (peer.start_to_last_s ?? Infinity) * 1000),
    cpu: ((peer.listmonk_cpu_s + peer.postgres_cpu_s) * 1e6) / peer.received_total,
  };
  const flowRatio = ours.firstToLast / theirs.firstToLast;
  const startRatio = ours.startToLast / theirs.startToLast;
  const cpuRatio = ours.cpu / theirs.cpu;
  return [
    [
      'listmonk v6.2.0: send request to last / first to last',
      `${theirs.startToLast} / ${theirs.firstToLast} msg/s`,
      `${peer.received_total} received; first mail ${peer.start_to_first_s} s after the request (listmonk picks campaigns up on a 5 s tick); ${peer.rcpt_duplicates} duplicates, ${peer.n - peer.rcpt_unique} missing; peak RSS ${Math.round(peer.listmonk_vmhwm_kb / 1024)} MB`,
    ],
    [
      'campaign / listmonk: first to last message',
      `${ours.firstToLast} / ${theirs.firstToLast} msg/s, ${flowRatio.toFixed(2)}x`,
      check(
        'first to last against listmonk',
        flowRatio >= TARGETS.peerFirstToLast,
        `>= ${TARGETS.peerFirstToLast}x`,
      ),
    ],
    [
      'campaign / listmonk: send request to last message',
      `${ours.startToLast} / ${theirs.startToLast} msg/s, ${startRatio.toFixed(2)}x`,
      check(
        'send request to last against listmonk',
        startRatio >= TARGETS.peerStartToLast,
        `>= ${TARGETS.peerStartToLast}x`,
      ),
    ],
    [
      'CPU per mail: campaign (workers + store + Redis) / listmonk (listmonk + Postgres)',
      `${Math.round(ours.cpu)} / ${Math.round(theirs.cpu)} µs, ${cpuRatio.toFixed(2)}x`,
      `listmonk ${perMessage(peer.listmonk_cpu_s * 1e6, peer.received_total)}, Postgres ${perMessage(peer.postgres_cpu_s * 1e6, peer.received_total)}, from its send request to its last mail; ${check('CPU per mail against listmonk', cpuRatio <= TARGETS.peerCpu, `<= ${TARGETS.peerCpu}x`)}`,
    ],
    [
      'average mail size at the sink: campaign / listmonk',
      `${averageKb(received)} / ${peer.avg_msg_bytes === null ? 'n/a' : `${(peer.avg_msg_bytes / 1024).toFixed(1)} KB`}`,
      "listmonk's rich-text default template; --content-kb grows the campaign's",
    ],
  ];
}

/**
 * The report of the campaign at the base size, beside the send path alone.
 * @param {CampaignFigures} figures
 * @param {{ aloneBefore: Awaited<ReturnType<typeof measureSendPathAlone>>,
 *   aloneAfter: Awaited<ReturnType<typeof measureSendPathAlone>>,
 *   reference: SinkReport, refStarted: number, refSenderMicros: number }} context
 * @param {ReturnType<typeof targetBook>['check']} check
 */
function campaignRows(
  figures,
  { aloneBefore, aloneAfter, reference, refStarted, refSenderMicros },
  check,
) {
  const { received: campaign, sendStarted, workerCpu, serverCpu } = figures;
  const refRate = rate(reference.accepted, reference.lastAt - refStarted);
  const referenceTally = tally(reference, figures.count);
  const firstToLast = rate(campaign.accepted, campaign.lastAt - campaign.firstAt);
  const startToLast = rate(campaign.accepted, campaign.lastAt - sendStarted);
  // Start to last, as the campaign's send request to last; the mean of the runs before and after.
  const aloneRate = Math.round((aloneBefore.rate + aloneAfter.rate) / 2);
  const startRatio = startToLast / aloneRate;
  const flowRatio = firstToLast / aloneRate;
  // What every process of the campaign spent per message, and the rate the cores allow at that cost.
  const campaignMicros =
    workerCpu * 1e6 +
    serverCpu.reduce((sum, { seconds }) => sum + seconds * 1e6, 0) +
    campaign.cpuMicros;
  const cores = availableParallelism();
  const ceiling = (cores * 1e6 * campaign.accepted) / campaignMicros;
  const busy = campaignMicros / 1e6 / (cores * ((campaign.lastAt - sendStarted) / 1000));
  const percent = (/** @type {number | null} */ share) =>
    share === null ? 'n/a' : `${share.toFixed(1)}%`;
  return [
    [
      'send path alone: MIME + SMTP, no queue or store',
      `${aloneRate} msg/s`,
      `mean of ${Math.round(aloneBefore.rate)} before and ${Math.round(aloneAfter.rate)} after the campaign; one process, ${args.concurrency} in flight; CPU per message before / after ${Math.round(aloneBefore.senderMicros)} / ${Math.round(aloneAfter.senderMicros)} µs, sink ${Math.round(aloneBefore.sinkMicros)} / ${Math.round(aloneAfter.sinkMicros)} µs`,
    ],
    [
      'campaign: delivery, send request to last message',
      `${startToLast} msg/s, ${startRatio.toFixed(2)}x`,
      check(
        'send request to last',
        startRatio >= TARGETS.startToLast,
        `>= ${TARGETS.startToLast}x the send path alone`,
      ),
    ],
    [
      'campaign: delivery, first to last message',
      `${firstToLast} msg/s, ${flowRatio.toFixed(2)}x`,
      check(
        'first to last',
        flowRatio >= TARGETS.firstToLast,
        `>= ${TARGETS.firstToLast}x the send path alone`,
      ),
    ],
    [
      `campaign: the ${cores} cores' ceiling at its CPU per message`,
      `${Math.round(ceiling)} msg/s, ${(ceiling / aloneRate).toFixed(2)}x`,
      `workers, store, Redis and sink together ${perMessage(campaignMicros, campaign.accepted)}, were the cores never idle; they were busy ${Math.round(busy * 100)}% of the send request to last`,
    ],
    [
      'machine: CPU time taken by the host (steal)',
      `${percent(aloneBefore.stolen)} / ${percent(figures.campaignStolen)} / ${percent(aloneAfter.stolen)}`,
      'send path alone before / campaign / send path alone after: a shared machine is slower while it is high',
    ],
    [
      'campaign: send request to first message',
      `${Math.round(campaign.firstAt - sendStarted)} ms`,
      `all ${figures.count} in ${((campaign.lastAt - sendStarted) / 1000).toFixed(1)} s`,
    ],
    [
      'campaign: enqueue (dispatch)',
      `${Math.round(figures.count / figures.enqueueSeconds)} recipients/s`,
      `${figures.enqueueSeconds.toFixed(1)} s`,
    ],
    progressRow(figures, check),
    ...rssRows(figures, check),
    [
      "workers' start-up: the recount / the people view's fill",
      `${figures.startupSeconds.recount.toFixed(1)} / ${figures.startupSeconds.fill.toFixed(1)} s`,
      `over ${figures.count} contacts stored behind the API, before the send`,
    ],
    [
      'worker peak RSS at start-up, largest',
      `${figures.startupRss.toFixed(0)} MB`,
      `before the send: the first recount of the dashboard's figures and the people view's fill over ${figures.count} contacts`,
    ],
    [
      "store peak RSS (VmHWM): recipients stored / API start / workers' recount / people fill / send",
      [
        figures.storeRss.stored,
        figures.storeRss.api,
        figures.storeRss.startup,
        figures.storeRss.fill,
        figures.storeRss.send,
      ]
        .map((mb) => Math.round(mb))
        .join(' / ') + ' MB',
      "each from the end of the phase before (the store keeps what it took): storing the recipients, the API starting until healthy, the workers starting until their recount ends, the people view's fill, the send request to `sent`",
    ],
    [
      'workers: CPU per message (all processes, after start-up)',
      perMessage(workerCpu * 1e6, campaign.accepted),
      `${workerCpu.toFixed(1)} s in all; the API ${figures.apiCpu.toFixed(1)} s`,
    ],
    [
      'campaign: CPU per message of the store and Redis',
      serverCpu
        .map(({ name, seconds }) => `${name} ${perMessage(seconds * 1e6, campaign.accepted)}`)
        .join(', ') || 'none started here',
      'from the send request to the end: the store and Redis share the cores',
    ],
    ['campaign: sink CPU per message', perMessage(campaign.cpuMicros, campaign.accepted), ''],
    ['campaign: average mail size at the sink', averageKb(campaign), ''],
    [
      `campaign: store commands per batch of ${args.batch}`,
      commandsPer(figures.commands, figures.count / Number(args.batch)),
      "every process's, the dispatch's and the progress polls' included; a batch's several documents in one command count once",
    ],
    ...deliveryRows(figures, check),
    [
      'context: pooled Nodemailer loop',
      `${refRate} msg/s`,
      `${REF_CONNECTIONS} connections; CPU per message, sender / sink ${perMessage(refSenderMicros, reference.accepted)} / ${perMessage(reference.cpuMicros, reference.accepted)}; ${referenceTally.duplicates} duplicates, ${referenceTally.missing} missing`,
    ],
  ];
}

/** The workers' peak RSS rows with their caps. @param {CampaignFigures} figures @param {ReturnType<typeof targetBook>['check']} check */
function rssRows({ peakRss, count }, check) {
  const largest = Math.max(...peakRss);
  const all = peakRss.reduce((sum, mb) => sum + mb, 0);
  return [
    [
      'worker peak RSS (VmHWM) during the campaign, largest',
      `${largest.toFixed(0)} MB`,
      check(`RSS per worker at ${count}`, largest <= TARGETS.rssMb, `<= ${TARGETS.rssMb} MB`),
    ],
    [
      'worker peak RSS (VmHWM) during the campaign, all workers',
      `${all.toFixed(0)} MB`,
      check(`RSS of all workers at ${count}`, all <= TARGETS.allRssMb, `<= ${TARGETS.allRssMb} MB`),
    ],
  ];
}

/** Duplicates, missing and the campaign's status. @param {CampaignFigures} figures @param {ReturnType<typeof targetBook>['check']} check */
function deliveryRows({ tally: counted, progress, count }, check) {
  return [
    [
      'duplicates (sink RCPT TO)',
      String(counted.duplicates),
      check(`no duplicates at ${count}`, counted.duplicates === 0, '0'),
    ],
    [
      'missing (sink RCPT TO)',
      String(counted.missing),
      check(`nobody missing at ${count}`, counted.missing === 0, '0'),
    ],
    [
      'campaign status, sent / failed',
      `${progress.status}, ${progress.sentCount} / ${progress.failedCount}`,
      '',
    ],
  ];
}

/**
 * The cost curve: the campaign at the base size and at `--scale` times it,
 * each per mail, and how the larger one grew.
 * @param {CampaignFigures} base @param {CampaignFigures} scaled
 * @param {ReturnType<typeof targetBook>['check']} check
 */
function costCurveRows(base, scaled, check) {
  const timePerMail = (/** @type {CampaignFigures} */ figures) =>
    ((figures.received.lastAt - figures.sendStarted) * 1000) / figures.count;
  const cpuOf = (/** @type {CampaignFigures} */ figures, /** @type {string} */ name) =>
    ((figures.serverCpu.find((server) => server.name === name)?.seconds ?? 0) * 1e6) /
    figures.received.accepted;
  const serverNames = base.serverCpu.map(({ name }) => name);
  /** @type {[string, (figures: CampaignFigures) => number, string][]} */
  const measures = [
    ['time per mail, send request to last', timePerMail, 'µs'],
    [
      'CPU per mail: workers',
      (figures) => (figures.workerCpu * 1e6) / figures.received.accepted,
      'µs',
    ],
    ...serverNames.map(
      (name) =>
        /** @type {[string, (figures: CampaignFigures) => number, string]} */ ([
          `CPU per mail: ${name}`,
          (figures) => cpuOf(figures, name),
          'µs',
        ]),
    ),
    ['CPU per mail: workers + store + Redis', campaignCpuMicros, 'µs'],
    ['worker peak RSS, largest', (figures) => Math.max(...figures.peakRss), 'MB'],
    [
      'worker peak RSS, all workers',
      (figures) => figures.peakRss.reduce((sum, mb) => sum + mb, 0),
      'MB',
    ],
    ['worker peak RSS at start-up (recount)', (figures) => figures.startupRss, 'MB'],
    ['store peak RSS, recipients stored', (figures) => figures.storeRss.stored, 'MB'],
    ['store peak RSS, API start', (figures) => figures.storeRss.api, 'MB'],
    ["store peak RSS, workers' start-up recount", (figures) => figures.storeRss.startup, 'MB'],
    ["store peak RSS, the people view's fill", (figures) => figures.storeRss.fill, 'MB'],
    [
      "the people view's fill at start-up, time per contact",
      (figures) => (figures.startupSeconds.fill * 1e6) / figures.count,
      'µs',
    ],
    ['store peak RSS, send', (figures) => figures.storeRss.send, 'MB'],
    ['progress answer time, p99', (figures) => percentile(figures.pollMs, 0.99), 'ms'],
    ['progress answer time, max', (figures) => Math.max(...figures.pollMs), 'ms'],
    ['duplicates', (figures) => figures.tally.duplicates, ''],
    ['missing', (figures) => figures.tally.missing, ''],
  ];
  const rows = measures.map(([what, measure, unit]) => {
    const [small, large] = [measure(base), measure(scaled)];
    return [
      what,
      `${Math.round(small)} ${unit}`.trim(),
      `${Math.round(large)} ${unit}`.trim(),
      small === 0 ? '' : `${(large / small).toFixed(2)}x`,
    ];
  });
  const cpuGrowth = campaignCpuMicros(scaled) / campaignCpuMicros(base);
  return {
    rows,
    checks: [
      check(
        `CPU per mail at ${scaled.count}`,
        cpuGrowth <= 1 + TARGETS.scaleCpuGrowth,
        `workers + store + Redis at ${scaled.count} <= ${1 + TARGETS.scaleCpuGrowth}x the figure at ${base.count}: ${cpuGrowth.toFixed(2)}x`,
      ),
      ...rssRows(scaled, check).map(([what, , note]) => `${what}: ${note}`),
      ...deliveryRows(scaled, check)
        .slice(0, 2)
        .map(([what, , note]) => `${what}: ${note}`),
      progressRow(scaled, check)[2],
    ],
  };
}

/**
 * Whether the listmonk peer runs: null (with a note printed) when `--peer`
 * is not given or the peer cannot run here.
 */
async function peerToRun() {
  if (!args.peer) return null;
  const why = await peerUnavailable(peerDir());
  if (why) {
    console.log(
      `note: ${why}; the comparison with listmonk is skipped, the rest of the bench runs.`,
    );
    return null;
  }
  return peerDir();
}

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'agency-bench-mail-'));
  /** @type {(() => unknown)[]} */
  const cleanups = [() => rmSync(dataDir, { recursive: true, force: true })];
  try {
    const peer = await peerToRun();
    // With the peer, everything is received by the peer's own sink: listmonk's campaign and ours.
    const sink = peer ? await startPeerSink() : await startSink();
    cleanups.push(sink.close);
    const listmonk = peer ? await runListmonkCampaign(RECIPIENTS) : null;
    await sink.reset();

    const services = await startServices({ dataDir, mailCatcher: false });
    cleanups.push(services.stop);
    const stage = { services, sink, dataDir, stamp: Date.now() };

    // 1. The reference loop into the sink.
    const refCpu = process.cpuUsage();
    const refStarted = await referenceLoop(sink.url);
    const refSender = process.cpuUsage(refCpu);
    const reference = await sink.report();
    await sink.reset();

    // 2. The campaign's send path alone into the sink, before and after the campaign.
    const aloneBefore = await measureSendPathAlone(sink);
    const base = await measureCampaign(stage, RECIPIENTS);
    const aloneAfter = await measureSendPathAlone(sink);
    const { missed, check } = targetBook();
    const rows = [
      ...campaignRows(
        base,
        {
          aloneBefore,
          aloneAfter,
          reference,
          refStarted,
          refSenderMicros: refSender.user + refSender.system,
        },
        check,
      ),
      ...(listmonk ? peerRows(base, listmonk, check) : []),
    ];
    const title = `bench:mail, ${RECIPIENTS} recipients, ${WORKERS} worker processes (${workerSettings()}), concurrency ${args.concurrency}, batch ${args.batch}, batches in flight ${args['batches-in-flight']}, content ${(CONTENT.length / 1024).toFixed(1)} KB, sink ${sink.name}`;
    if (SCALE === 1) {
      printReport(title, rows, missed);
      return;
    }
    // The base size's table first: the larger run takes many minutes, and may be stopped.
    printTable(title, rows);
    // 3. At --scale times the recipients (the send path alone and the reference loop are not run again).
    /** @type {CampaignFigures} */
    let scaled;
    try {
      scaled = await measureCampaign(stage, RECIPIENTS * SCALE);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      check(`the campaign at ${RECIPIENTS * SCALE}`, false, 'runs to the end');
      console.log(
        `\nthe campaign at ${SCALE}x (${RECIPIENTS * SCALE}) was not measured: ${reason}`,
      );
      console.log(`targets MISSED: ${missed.join(', ')}`);
      return;
    }
    const curve = costCurveRows(base, scaled, check);
    console.log(
      `\ncost curve: the campaign at ${RECIPIENTS} and at ${SCALE}x (${RECIPIENTS * SCALE}), each in a fresh database; the send path alone and the reference loop ran at ${RECIPIENTS} only\n`,
    );
    console.table(
      curve.rows.map(([what, small, large, growth]) => ({
        what,
        // Not bare numbers: an object's integer keys would come before `what`.
        [`at ${RECIPIENTS}`]: small,
        [`at ${RECIPIENTS * SCALE}`]: large,
        growth,
      })),
    );
    for (const line of curve.checks) console.log(`  ${line}`);
    console.log(missed.length === 0 ? 'targets: all met' : `targets MISSED: ${missed.join(', ')}`);
  } finally {
    await runCleanups(cleanups);
  }
}

runBench(main);
