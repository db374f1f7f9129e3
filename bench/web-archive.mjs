// @ts-check
/**
 * `npm run bench:archive`: Lighthouse on the public newsletter archive, whose
 * pages the API renders from what is published (bench/web.mjs serves the
 * build alone, without an API). Runs on the built app (`npm run build`
 * first):
 *
 * 1. Starts the e2e stack (scripts/e2e-stack.mjs: the app in demo mode, its
 *    own MailDev, throw-away MongoDB/Redis unless MONGODB_URI/REDIS_URL).
 * 2. As the demo admin, publishes and sends a campaign written in en, fr
 *    and ar to a list of one, and waits until the archive shows it.
 * 3. Runs Lighthouse (bench/web-lighthouse.mjs) on the index and the
 *    campaign's page in each language, --runs times (default 1), and prints
 *    the median scores. Exits 1 unless SEO and accessibility are 100.
 *
 * --scale N (with --archive, default 100): the cost curve of the archive's
 * size instead of 3. The campaign published in 2 is copied in the store as
 * the send stored it (new ids, each sent a minute before the last) until
 * the archive holds --archive campaigns, then N times as many; at each size,
 * --reads (default 50) requests one after another of the index and of a
 * campaign's page (the newest and the oldest, where the store must look
 * furthest), their p50 and p99, the API's CPU per request and peak RSS
 * (VmHWM), and one Lighthouse performance score of the index. The index
 * lists at most ARCHIVE_INDEX_MAX (100) campaigns, whatever the size.
 *
 *   npm run build && npm run bench:archive [-- --runs 3] [-- --scale 10 --archive 100 --reads 50]
 */
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createRequire } from 'node:module';
import { printCostCurve, wholeNumberOption } from './lib/bench-steps.mjs';
import { cpuSince, descendantRunning, peakRssMbOf, resetPeakRssOf } from './lib/processes.mjs';
import { timeStaffRead } from './lib/staff-read.mjs';
import { CATEGORIES, lighthouse } from './web-lighthouse.mjs';

const rootDir = join(import.meta.dirname, '..');
const reportDir = join(rootDir, 'artifacts', 'lighthouse');
/** Categories the archive must score 100 in; the others are printed. */
const REQUIRED = ['seo', 'accessibility'];
const { values: options } = parseArgs({
  options: {
    runs: { type: 'string', default: '1' },
    scale: { type: 'string' },
    archive: { type: 'string', default: '100' },
    reads: { type: 'string', default: '50' },
  },
});
const runs = Number.parseInt(options.runs, 10);
const SCALE = wholeNumberOption('scale', options.scale);
const ARCHIVE = wholeNumberOption('archive', options.archive);
const READS = wholeNumberOption('reads', options.reads);
const require = createRequire(join(rootDir, 'backend', 'package.json'));

/**
 * @typedef {{ baseUrl: string, apiUrl: string, demoAdmin: { username: string, password: string },
 *   store: { mongodbUri: string } }} Stack
 */

/**
 * Starts the e2e stack and resolves with what its E2E_STACK line says.
 * @returns {Promise<{ stack: Stack, pid: number | undefined, stop: () => void }>}
 */
function startStack() {
  const child = spawn('node', ['scripts/e2e-stack.mjs'], {
    cwd: rootDir,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let output = '';
    child.once('exit', (code) => reject(new Error(`the e2e stack exited (${code})`)));
    child.stdout.on('data', (chunk) => {
      output += String(chunk);
      const line = /E2E_STACK=(\{.*\})\n/.exec(output)?.[1];
      if (line) {
        resolve({ stack: JSON.parse(line), pid: child.pid, stop: () => child.kill('SIGTERM') });
      }
    });
  });
}

/**
 * @param {string} url @param {RequestInit} init @param {number} status
 * @returns {Promise<Record<string, unknown>>}
 */
async function call(url, init, status) {
  const response = await fetch(url, init);
  const text = await response.text();
  if (response.status !== status) throw new Error(`${url}: ${response.status} ${text}`);
  return text ? JSON.parse(text) : {};
}

/**
 * Publishes and sends a campaign in three languages; resolves with its id once archived.
 * @param {{ apiUrl: string, demoAdmin: { username: string, password: string } }} stack
 */
async function publishCampaign({ apiUrl, demoAdmin }) {
  const json = { 'Content-Type': 'application/json' };
  const login = await call(
    `${apiUrl}/api/admin/login`,
    { method: 'POST', headers: json, body: JSON.stringify(demoAdmin) },
    200,
  );
  const headers = { ...json, Authorization: `Bearer ${String(login.token)}` };
  /** @param {string} path @param {unknown} body @param {number} status */
  const post = (path, body, status) =>
    call(`${apiUrl}${path}`, { method: 'POST', headers, body: JSON.stringify(body) }, status);
  const list = await post('/api/admin/lists', { name: `Archive bench ${Date.now()}` }, 201);
  await post(`/api/admin/lists/${String(list.id)}/members`, { email: 'reader@example.com' }, 201);
  const campaign = await post(
    '/api/admin/campaigns',
    {
      name: 'Archive bench',
      subject: 'Spring offers from the agency',
      content:
        '<h2>New packages</h2><p>Hello {{firstName}}, our spring packages for shops and ' +
        'restaurants are ready: a website, its photos and a month of social posts.</p>',
      translations: [
        {
          locale: 'fr',
          subject: "Les offres de printemps de l'agence",
          content: '<h2>Nouvelles offres</h2><p>Bonjour, nos offres de printemps sont prêtes.</p>',
        },
        {
          locale: 'ar',
          subject: 'عروض الربيع من الوكالة',
          content: '<h2>باقات جديدة</h2><p>مرحبا، باقات الربيع جاهزة.</p>',
        },
      ],
      recipientType: 'lists',
      listIds: [String(list.id)],
      publishToArchive: true,
    },
    201,
  );
  const id = String(campaign.id);
  await post(`/api/admin/campaigns/${id}/send`, {}, 202);
  for (let wait = 0; wait < 120; wait++) {
    const index = await call(`${apiUrl}/api/archive/en`, {}, 200);
    const items = /** @type {{ id: string }[]} */ (index.items);
    if (items.some((item) => item.id === id)) return id;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error('the campaign did not reach the archive within a minute');
}

/** @param {number[]} values */
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

/**
 * Copies the published campaign in the store, as the send stored it, until
 * the archive holds `count`: each copy a new id, sent a minute before the last.
 * @param {import('mongodb').Collection} campaigns @param {string} id @param {number} count
 */
async function growArchive(campaigns, id, count) {
  const { ObjectId } = require('mongodb');
  const published = await campaigns.findOne({ _id: new ObjectId(id) });
  if (!published) throw new Error('the published campaign is not in the store');
  const held = await campaigns.countDocuments({ publishToArchive: true, status: 'sent' });
  const sentAt = published.finishedAt ?? published.updatedAt;
  const copies = Array.from({ length: count - held }, (_, index) => ({
    ...published,
    _id: new ObjectId(),
    name: `${published.name} ${held + index}`,
    finishedAt: new Date(sentAt.getTime() - (held + index) * 60_000),
  }));
  for (let from = 0; from < copies.length; from += 1000) {
    await campaigns.insertMany(copies.slice(from, from + 1000));
  }
  const oldest = await campaigns
    .find({ publishToArchive: true, status: 'sent' })
    .sort({ finishedAt: 1 })
    .limit(1)
    .next();
  return String(oldest?._id);
}

/**
 * One Lighthouse performance score of the index, a second try if the first
 * fails (on a loaded machine Chromium's trace is sometimes lost); NaN after two.
 * @param {Stack} stack
 */
async function indexPerformance(stack) {
  for (let attempt = 1; attempt <= 2; attempt += 1) {
    try {
      const reportPath = join(reportDir, `archive-scale-${Date.now()}.json`);
      return (await lighthouse(`${stack.baseUrl}/newsletter`, reportPath)).performance;
    } catch (error) {
      console.error(`Lighthouse, attempt ${attempt}: ${String(error)}`);
    }
  }
  return Number.NaN;
}

/**
 * One size: the archive's index and pages read one after another, with the API's CPU and peak RSS.
 * @param {Stack} stack @param {number | undefined} apiPid @param {{ newest: string, oldest: string }} ids
 */
async function measureArchive(stack, apiPid, ids) {
  resetPeakRssOf(apiPid);
  const cpu = cpuSince([{ name: 'api', pid: apiPid }]);
  const count = { times: READS, warmUp: 5 };
  const read = (/** @type {string} */ path) => timeStaffRead(stack.baseUrl, path, {}, count);
  const index = await read('/newsletter');
  const newest = await read(`/newsletter/${ids.newest}`);
  const oldest = await read(`/newsletter/${ids.oldest}`);
  const apiSeconds = cpu().api ?? 0;
  // An index without the campaign would time an empty page.
  if (!index.body.includes('Spring offers from the agency')) {
    throw new Error('the archive index does not list the published campaign');
  }
  const peakRss = peakRssMbOf(apiPid);
  const performance = await indexPerformance(stack);
  return {
    'index p50 ms': Number(index.p50.toFixed(1)),
    'index p99 ms': Number(index.p99.toFixed(1)),
    'newest page p50 ms': Number(newest.p50.toFixed(1)),
    'newest page p99 ms': Number(newest.p99.toFixed(1)),
    'oldest page p50 ms': Number(oldest.p50.toFixed(1)),
    'oldest page p99 ms': Number(oldest.p99.toFixed(1)),
    'API CPU ms/request': Number(((apiSeconds * 1000) / (3 * READS)).toFixed(2)),
    'API peak RSS MB': Math.round(peakRss),
    'Lighthouse performance, index': performance,
  };
}

/**
 * The cost curve: the archive at ARCHIVE campaigns and at SCALE times as many.
 * @param {Stack} stack @param {number | undefined} stackPid @param {string} id
 */
async function costCurve(stack, stackPid, id) {
  const apiPid = descendantRunning(stackPid, 'backend/dist/server.js');
  if (!apiPid) throw new Error("the e2e stack's API process was not found");
  const mongoose = require('mongoose');
  const store = await mongoose.createConnection(stack.store.mongodbUri).asPromise();
  try {
    if (!store.db) throw new Error('no connection to the store');
    const campaigns = store.db.collection('campaigns');
    const sizes = [];
    for (const count of [ARCHIVE, ARCHIVE * SCALE]) {
      console.log(`an archive of ${count} campaigns...`);
      const oldest = await growArchive(campaigns, id, count);
      const size = await measureArchive(stack, apiPid, { newest: id, oldest });
      // Printed at once too: a long run's figures outlive a later size's failure.
      console.table(size);
      sizes.push(size);
    }
    const [small, large] = sizes;
    if (!small || !large) return;
    printCostCurve(
      `bench:archive cost curve: ${ARCHIVE} (1x) and ${ARCHIVE * SCALE} (${SCALE}x) published campaigns; ${READS} reads of each page one after another`,
      SCALE,
      small,
      large,
    );
  } finally {
    await store.close();
  }
}

async function main() {
  mkdirSync(reportDir, { recursive: true });
  const { stack, pid, stop } = await startStack();
  let allMet = true;
  try {
    const id = await publishCampaign(stack);
    if (SCALE > 1) {
      await costCurve(stack, pid, id);
      return;
    }
    const pages = ['', '/fr', '/ar'].flatMap((prefix) => [
      `${prefix}/newsletter`,
      `${prefix}/newsletter/${id}`,
    ]);
    for (const page of pages) {
      /** @type {Record<import('./web-lighthouse.mjs').Category, number>[]} */
      const results = [];
      for (let run = 1; run <= runs; run++) {
        const name = `archive-${page.replace(/^\//, '').replace(/\W+/g, '-')}-${run}.json`;
        results.push(await lighthouse(`${stack.baseUrl}${page}`, join(reportDir, name)));
      }
      const scores = CATEGORIES.map((category) => {
        const value = median(results.map((result) => result[category]));
        if (REQUIRED.includes(category) && value < 100) allMet = false;
        return `${category} ${value}`;
      });
      console.log(`${page.replace(id, '<id>')}: ${scores.join(', ')}`);
    }
  } finally {
    stop();
  }
  console.log(allMet ? 'SEO and accessibility 100 on every archive page.' : 'A target was missed.');
  process.exitCode = allMet ? 0 : 1;
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
