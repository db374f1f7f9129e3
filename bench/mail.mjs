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
 * A plain pooled Nodemailer loop into the same sink is shown for context.
 *
 *   npm run build && npm run bench:mail [-- --recipients 20000 --workers 2
 *     --concurrency 20 --batch 200 --batches-in-flight 4 --connections 20
 *     --ref-connections 10 --content-kb 0 --sink raw]
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
import { workerNodeOptions } from '../scripts/lib/app-env.mjs';
import { startServices } from '../scripts/lib/services.mjs';
import { printReport, runBench, runCleanups, targetBook, until } from './lib/bench-steps.mjs';
import { cpuSecondsOf, freePort, hostCpuTimes, stolenPercent } from './lib/processes.mjs';
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
  },
});
const RECIPIENTS = Number(args.recipients);
const WORKERS = Number(args.workers);
const REF_CONNECTIONS = Number(args['ref-connections']);
const SINK = args.sink === 'smtp-server' ? 'smtp-server' : 'raw';
/** The campaign against its own send path in the same run, and listmonk's single process's memory. */
const TARGETS = { startToLast: 0.8, firstToLast: 0.9, rssMb: 150, allRssMb: 250 };
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

/** @typedef {{ accepted: number, firstAt: number, lastAt: number, cpuMicros: number, rcpt: [string, number][] }} SinkReport */

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
  return {
    url: `smtp://127.0.0.1:${port}`,
    /** @returns {Promise<SinkReport>} */
    report: () => ask('report'),
    reset: () => ask('reset'),
    close: () => {
      child.disconnect();
    },
  };
}

const email = (/** @type {number} */ index) => `r${index}@bench.example`;

/** @param {SinkReport} report */
function tally(report) {
  const counts = new Map(report.rcpt);
  let duplicates = 0;
  for (const count of counts.values()) duplicates += Math.max(count - 1, 0);
  let missing = 0;
  for (let index = 0; index < RECIPIENTS; index += 1) if (!counts.has(email(index))) missing += 1;
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
 * @param {{ url: string, report: () => Promise<any>, reset: () => Promise<unknown> }} sink
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

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'agency-bench-mail-'));
  /** @type {(() => unknown)[]} */
  const cleanups = [() => rmSync(dataDir, { recursive: true, force: true })];
  try {
    const services = await startServices({ dataDir, mailCatcher: false });
    cleanups.push(services.stop);
    const stamp = Date.now();
    const mongodbUri = withDatabaseName(services.mongodbUri, `bench_mail_${stamp}`);
    const sink = await startSink();
    cleanups.push(sink.close);

    // 1. The reference loop into the sink.
    const refCpu = process.cpuUsage();
    const refStarted = await referenceLoop(sink.url);
    const refSenderCpu = process.cpuUsage(refCpu);
    const reference = await sink.report();
    const referenceTally = tally(reference);
    await sink.reset();

    // 1b. The campaign's send path alone into the sink (again after the campaign).
    const aloneBefore = await measureSendPathAlone(sink);

    // 2. The recipients, stored as the API stores contacts (with their search keys) whose own mails are done.
    const mongoose = require('mongoose');
    const { withSearchKeys, contactAddressOf, contactFactsOf } = require('@agency/platform');
    await mongoose.connect(mongodbUri);
    cleanups.push(() => mongoose.disconnect());
    const contacts = mongoose.connection.db.collection('contacts');
    const addresses = mongoose.connection.db.collection('contactaddresses');
    for (let from = 0; from < RECIPIENTS; from += 5000) {
      const now = new Date();
      const enquiries = Array.from({ length: Math.min(5000, RECIPIENTS - from) }, (_, offset) =>
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

    // 3. The API and the workers.
    const env = benchAppEnv(
      {
        dataDir,
        mongodbUri,
        redisUrl: services.redisUrl,
        queuePrefix: `benchmail${stamp}`,
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
    const workers = Array.from({ length: WORKERS }, (_, index) =>
      startWorker(`worker ${index + 1}`, env),
    );
    for (const worker of workers) cleanups.push(worker.stop);
    // The workers are up once each has registered on the send queue.
    const { Queue } = require('bullmq');
    const { Redis } = require('ioredis');
    const connection = new Redis(services.redisUrl, { maxRetriesPerRequest: null });
    cleanups.push(() => connection.disconnect());
    const sendQueue = new Queue(QUEUE_NAMES.campaignSend, { connection, prefix: env.QUEUE_PREFIX });
    const dispatchQueue = new Queue(QUEUE_NAMES.campaignDispatch, {
      connection,
      prefix: env.QUEUE_PREFIX,
    });
    cleanups.push(() => Promise.all([sendQueue.close(), dispatchQueue.close()]));
    await until(async () => (await sendQueue.getWorkersCount()) >= WORKERS, 60_000);
    // A new installation recounts the dashboard's figures once at start-up (a
    // pass over every stored contact). Let it end first: the campaign's figures
    // are the campaign's, and the start-up's peak is shown apart.
    const reconcileQueue = new Queue(QUEUE_NAMES.statsReconcile, {
      connection,
      prefix: env.QUEUE_PREFIX,
    });
    cleanups.push(() => reconcileQueue.close());
    await until(async () => (await reconcileQueue.getCompletedCount()) >= 1, 120_000);
    const startupRss = Math.max(...workers.map((worker) => worker.peakRssMb()));
    for (const worker of workers) worker.resetPeakRss();
    const workerCpuBefore = workers.reduce((sum, worker) => sum + worker.cpuSeconds(), 0);

    // 4. The campaign, through the API as the dashboard sends it.
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
    /** @type {any} */
    let progress;
    await until(
      async () => {
        progress = await fetch(
          `${apiUrl}${apiPath(API_ROUTES.campaignProgress, { id: draft.id })}`,
          {
            headers,
          },
        ).then((response) => response.json());
        return ['sent', 'failed'].includes(progress.status);
      },
      15 * 60_000,
      250,
    );
    const campaignStolen = stolenPercent(hostBefore, hostCpuTimes());
    const serverCpu = services.started.map(({ name, pid }, index) => ({
      name,
      seconds: cpuSecondsOf(pid) - (serverCpuBefore[index] ?? 0),
    }));
    const commands = commandsSince(commandsBefore, await storeCommands(mongoose.connection.db));
    const campaign = await sink.report();
    const campaignTally = tally(campaign);
    const dispatch = await dispatchQueue.getJob(`campaign-dispatch-${draft.id}`);
    const enqueueSeconds = (dispatch.finishedOn - dispatch.processedOn) / 1000;
    const peakRss = workers.map((worker) => worker.peakRssMb());
    const workerCpu =
      workers.reduce((sum, worker) => sum + worker.cpuSeconds(), 0) - workerCpuBefore;
    const apiCpu = api.cpuSeconds();
    const aloneAfter = await measureSendPathAlone(sink);

    // 5. The table.
    const rate = (/** @type {number} */ count, /** @type {number} */ ms) =>
      Math.round(count / (ms / 1000));
    const refRate = rate(reference.accepted, reference.lastAt - refStarted);
    const firstToLast = rate(campaign.accepted, campaign.lastAt - campaign.firstAt);
    const startToLast = rate(campaign.accepted, campaign.lastAt - sendStarted);
    // Start to last, as the campaign's send request to last; the mean of the runs before and after.
    const aloneRate = Math.round((aloneBefore.rate + aloneAfter.rate) / 2);
    const startRatio = startToLast / aloneRate;
    const flowRatio = firstToLast / aloneRate;
    const largestRss = Math.max(...peakRss);
    const allRss = peakRss.reduce((sum, mb) => sum + mb, 0);
    const perMessage = (/** @type {number} */ micros, /** @type {number} */ count) =>
      `${Math.round(micros / count)} µs`;
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
    const { missed, check } = targetBook();
    const rows = [
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
        `${percent(aloneBefore.stolen)} / ${percent(campaignStolen)} / ${percent(aloneAfter.stolen)}`,
        'send path alone before / campaign / send path alone after: a shared machine is slower while it is high',
      ],
      [
        'campaign: send request to first message',
        `${Math.round(campaign.firstAt - sendStarted)} ms`,
        `all ${RECIPIENTS} in ${((campaign.lastAt - sendStarted) / 1000).toFixed(1)} s`,
      ],
      [
        'campaign: enqueue (dispatch)',
        `${Math.round(RECIPIENTS / enqueueSeconds)} recipients/s`,
        `${enqueueSeconds.toFixed(1)} s`,
      ],
      [
        'worker peak RSS (VmHWM) during the campaign, largest',
        `${largestRss.toFixed(0)} MB`,
        check('RSS per worker', largestRss <= TARGETS.rssMb, `<= ${TARGETS.rssMb} MB`),
      ],
      [
        'worker peak RSS (VmHWM) during the campaign, all workers',
        `${allRss.toFixed(0)} MB`,
        check('RSS of all workers', allRss <= TARGETS.allRssMb, `<= ${TARGETS.allRssMb} MB`),
      ],
      [
        'worker peak RSS at start-up, largest',
        `${startupRss.toFixed(0)} MB`,
        `before the send: the first recount of the dashboard's figures over ${RECIPIENTS} contacts`,
      ],
      [
        'workers: CPU per message (all processes, after start-up)',
        perMessage(workerCpu * 1e6, campaign.accepted),
        `${workerCpu.toFixed(1)} s in all; the API ${apiCpu.toFixed(1)} s`,
      ],
      [
        'campaign: CPU per message of the store and Redis',
        serverCpu
          .map(({ name, seconds }) => `${name} ${perMessage(seconds * 1e6, campaign.accepted)}`)
          .join(', ') || 'none started here',
        'from the send request to the end: the store and Redis share the cores',
      ],
      ['campaign: sink CPU per message', perMessage(campaign.cpuMicros, campaign.accepted), ''],
      [
        `campaign: store commands per batch of ${args.batch}`,
        commandsPer(commands, RECIPIENTS / Number(args.batch)),
        "every process's, the dispatch's and the progress polls' included; a batch's several documents in one command count once",
      ],
      [
        'duplicates (sink RCPT TO)',
        String(campaignTally.duplicates),
        check('no duplicates', campaignTally.duplicates === 0, '0'),
      ],
      [
        'missing (sink RCPT TO)',
        String(campaignTally.missing),
        check('nobody missing', campaignTally.missing === 0, '0'),
      ],
      [
        'campaign status, sent / failed',
        `${progress.status}, ${progress.sentCount} / ${progress.failedCount}`,
        '',
      ],
      [
        'context: pooled Nodemailer loop',
        `${refRate} msg/s`,
        `${REF_CONNECTIONS} connections; CPU per message, sender / sink ${perMessage(refSenderCpu.user + refSenderCpu.system, reference.accepted)} / ${perMessage(reference.cpuMicros, reference.accepted)}; ${referenceTally.duplicates} duplicates, ${referenceTally.missing} missing`,
      ],
    ];
    printReport(
      `bench:mail, ${RECIPIENTS} recipients, ${WORKERS} worker processes (${workerNodeOptions(process.env)}), concurrency ${args.concurrency}, batch ${args.batch}, batches in flight ${args['batches-in-flight']}, content ${(CONTENT.length / 1024).toFixed(1)} KB, sink ${SINK}`,
      rows,
      missed,
    );
  } finally {
    await runCleanups(cleanups);
  }
}

runBench(main);
