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
 */
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { CATEGORIES, lighthouse } from './web-lighthouse.mjs';

const rootDir = join(import.meta.dirname, '..');
const reportDir = join(rootDir, 'artifacts', 'lighthouse');
/** Categories the archive must score 100 in; the others are printed. */
const REQUIRED = ['seo', 'accessibility'];
const { values: options } = parseArgs({ options: { runs: { type: 'string', default: '1' } } });
const runs = Number.parseInt(options.runs, 10);

/**
 * Starts the e2e stack and resolves with what its E2E_STACK line says.
 * @returns {Promise<{ stack: { baseUrl: string, apiUrl: string, demoAdmin: { username: string, password: string } }, stop: () => void }>}
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
      if (line) resolve({ stack: JSON.parse(line), stop: () => child.kill('SIGTERM') });
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

async function main() {
  mkdirSync(reportDir, { recursive: true });
  const { stack, stop } = await startStack();
  let allMet = true;
  try {
    const id = await publishCampaign(stack);
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
