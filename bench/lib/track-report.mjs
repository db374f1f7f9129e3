// @ts-check
/**
 * The report phase of `npm run bench:track`: a campaign sent to 20,000
 * recipients (its ledger, its bounces, beside earlier campaigns), 20,000
 * opens and 20,000 clicks on it through the API, the worker counting them,
 * then the report, its CSV and the campaign list read as staff read them.
 */
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import autocannon from 'autocannon';
import { until } from './bench-steps.mjs';
import { timeStaffRead } from './staff-read.mjs';
import { commandsSince, storeCommands } from './store-commands.mjs';

const root = resolve(import.meta.dirname, '..', '..');
const require = createRequire(join(root, 'backend', 'package.json'));
const { API_ROUTES } = require('@agency/contracts');
const platform = require('@agency/platform');

const BROWSER =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15';
/** What Apple's privacy proxies send: a machine's open. */
const APPLE_PROXY = 'Mozilla/5.0';
/** An HTTP library's default agent: a scanner's click. */
const SCANNER = 'python-requests/2.31.0';
const LINKS = [
  'https://example.com/spring',
  'https://example.com/offer?utm_source=mail',
  'https://example.com/shop/shoes',
  'https://example.com/shop/bags',
  'https://example.com/blog/spring-trends',
  'https://example.com/',
];
/** Half the recipients read English, 30 % French, 20 % Arabic. */
const localeOf = (/** @type {number} */ index) =>
  index % 10 < 5 ? 'en' : index % 10 < 8 ? 'fr' : 'ar';
const LEDGER_BATCH = 50;
/** Campaigns sent before this one: the list's page is full. */
const EARLIER_CAMPAIGNS = 25;

/** @typedef {{ path: string, userAgent: string }} TrackingRequest */

/**
 * A campaign document as the send leaves it, sent `hoursAgo` hours ago.
 * @param {string} name @param {number} recipients @param {number} hoursAgo
 * @param {Record<string, unknown>} tracking
 */
function sentCampaignDocument(name, recipients, hoursAgo, tracking) {
  const startedAt = new Date(Date.now() - hoursAgo * 3_600_000);
  return {
    name,
    subject: `${name}: our spring offer`,
    content: '<p>Hi {{firstName}}</p>',
    recipientType: 'all',
    listIds: [],
    defaultLocale: 'en',
    translations: [
      { locale: 'fr', subject: 'Notre offre', content: '<p>Bonjour</p>' },
      { locale: 'ar', subject: 'عرضنا', content: '<p>مرحبا</p>' },
    ],
    placeholderFallbacks: null,
    templateId: null,
    scheduledAt: null,
    sendingWindow: null,
    ratePerMinute: null,
    fromAddress: null,
    replyTo: null,
    tracking,
    status: 'sent',
    total: recipients,
    sentCount: recipients,
    failedCount: 0,
    queuedAt: startedAt,
    startedAt,
    finishedAt: new Date(startedAt.getTime() + 600_000),
    round: 1,
    pass: 1,
    dispatchedRound: 1,
    roundBaseSent: 0,
    countersVersion: 0,
    createdAt: startedAt,
    updatedAt: startedAt,
  };
}

/**
 * The first round's ledger (its rosters, in batches as the dispatch writes
 * them) and the bounces and complaints that came back.
 * @param {import('mongodb').Db} db @param {import('mongodb').ObjectId} campaign @param {string[]} emails
 */
async function storeLedgerAndBounces(db, campaign, emails) {
  const batches = [];
  for (let seq = 0; seq * LEDGER_BATCH < emails.length; seq += 1) {
    const slice = emails.slice(seq * LEDGER_BATCH, (seq + 1) * LEDGER_BATCH);
    batches.push({
      _id: `${campaign.toHexString()}:1:${seq}`,
      campaign,
      round: 1,
      seq,
      recipients: slice.map((email, offset) => ({
        key: email,
        email,
        firstName: 'Reader',
        lastName: String(seq * LEDGER_BATCH + offset),
        locale: localeOf(seq * LEDGER_BATCH + offset),
      })),
      createdAt: new Date(),
      identity: 'keyed',
    });
  }
  await db.collection('campaignbatches').insertMany(batches);
  // 1 % hard bounces, 0.5 % soft, 0.1 % complaints.
  const kindOf = (/** @type {number} */ n) =>
    n % 1000 < 10
      ? 'hard-bounce'
      : n % 1000 < 15
        ? 'soft-bounce'
        : n % 1000 < 16
          ? 'complaint'
          : null;
  const mailEvents = emails.flatMap((email, index) => {
    const kind = kindOf(index * 7 + 3);
    if (!kind) return [];
    const at = new Date();
    return [
      { _id: `bench:${index}`, provider: 'bench', kind, key: email, email, campaign, round: 1, at },
    ];
  });
  if (mailEvents.length > 0) await db.collection('mailevents').insertMany(mailEvents);
  return { batches: batches.length, mailEvents: mailEvents.length };
}

/**
 * The opens and clicks of R recipients, 2R requests, as the readers of a
 * real campaign make them: 70 % open (one in seven through Apple's
 * proxies), 30 % open twice; half click a link, a quarter a second one
 * (some with no open: an implied one); a fifth of the mails are clicked by
 * a scanner, one in twenty on the trap link.
 * @param {{ tokenKey: Uint8Array, campaignId: string, key: string, sentAt: Date }} signing
 * @param {number} recipients
 * @returns {TrackingRequest[]}
 */
function readersRequests({ tokenKey, campaignId, key, sentAt }, recipients) {
  const mails = Array.from({ length: recipients }, (_, index) => ({
    campaignId,
    recipientKey: platform.recipientKeyOf(key, `reader${index}@bench.example`),
    locale: localeOf(index),
    // The seeded roster keeps no source, as one written before sources were: unknown.
    source: null,
    sentAt,
  }));
  const share = (/** @type {number} */ from, /** @type {number} */ to) =>
    mails.slice(Math.round(from * recipients), Math.round(to * recipients)).map((mail, offset) => ({
      mail,
      index: Math.round(from * recipients) + offset,
    }));
  const open = (/** @type {(typeof mails)[number]} */ mail, /** @type {string} */ userAgent) => ({
    path: `/api/t/o/${platform.signOpenToken(tokenKey, mail)}`,
    userAgent,
  });
  const click = (
    /** @type {(typeof mails)[number]} */ mail,
    /** @type {number} */ linkIndex,
    /** @type {string} */ userAgent,
  ) => ({
    path: `/api/t/c/${platform.signClickToken(tokenKey, { ...mail, linkIndex })}`,
    userAgent,
  });
  const opens = [
    ...share(0, 0.7).map(({ mail, index }) => open(mail, index % 7 === 0 ? APPLE_PROXY : BROWSER)),
    ...share(0, 0.3).map(({ mail }) => open(mail, BROWSER)),
  ];
  const clicks = [
    ...share(0.3, 0.8).map(({ mail, index }) => click(mail, index % LINKS.length, BROWSER)),
    ...share(0.3, 0.55).map(({ mail, index }) => click(mail, (index + 1) % LINKS.length, BROWSER)),
    ...share(0.8, 1).map(({ mail, index }) => click(mail, index % LINKS.length, SCANNER)),
    ...share(0, 0.05).map(({ mail }) => click(mail, LINKS.length, BROWSER)),
  ];
  // Opens and clicks come mixed, as readers make them.
  return opens.flatMap((request, index) => [request, ...(clicks[index] ? [clicks[index]] : [])]);
}

/**
 * The campaign of the report (sent two hours ago to `recipients` in three
 * languages, six tracked links, anonymous mode), earlier campaigns for the
 * list, and the readers' requests.
 * @param {import('mongodb').Db} db @param {string} mailLinkSecret @param {number} recipients
 */
export async function seedReportCampaign(db, mailLinkSecret, recipients) {
  const earlier = Array.from({ length: EARLIER_CAMPAIGNS }, (_, index) =>
    sentCampaignDocument(`Earlier ${index + 1}`, 1000, 24 * (index + 2), {
      opens: true,
      clicks: true,
      mode: null,
      key: null,
      keyDestroyedAt: null,
      links: [],
    }),
  );
  await db.collection('campaigns').insertMany(earlier);
  const key = platform.newCampaignTrackingKey();
  const tracking = { opens: true, clicks: true, mode: 'anonymous', key, keyDestroyedAt: null };
  const document = sentCampaignDocument('Report', recipients, 2, { ...tracking, links: LINKS });
  const { insertedId } = await db.collection('campaigns').insertOne(document);
  const emails = Array.from({ length: recipients }, (_, index) => `reader${index}@bench.example`);
  const ledger = await storeLedgerAndBounces(db, insertedId, emails);
  const signing = {
    tokenKey: platform.trackingTokenKey(mailLinkSecret),
    campaignId: insertedId.toHexString(),
    key,
    // Each mail built as the send went out, a minute after it started.
    sentAt: new Date(Math.floor(document.startedAt.getTime() / 1000 + 60) * 1000),
  };
  return {
    campaignId: insertedId.toHexString(),
    ...ledger,
    links: LINKS.length,
    requests: readersRequests(signing, recipients),
  };
}

/**
 * Every request once, `connections` at once, each with its own agent.
 * @param {string} url @param {TrackingRequest[]} requests @param {number} connections
 */
export async function readersBurst(url, requests, connections) {
  let next = -1;
  const result = await autocannon({
    url,
    connections,
    amount: requests.length,
    requests: [
      {
        method: 'GET',
        setupRequest: (request) => {
          next = (next + 1) % requests.length;
          const { path, userAgent } = requests[next] ?? { path: '/', userAgent: BROWSER };
          return { ...request, path, headers: { ...request.headers, 'user-agent': userAgent } };
        },
      },
    ],
  });
  const answered = result['2xx'] + result['3xx'];
  return {
    answered,
    failed: result.non2xx - result['3xx'] + result.errors + result.timeouts,
    rate: answered / result.duration,
  };
}

/** The job states a batch waits or runs in. */
const UNFINISHED = ['waiting', 'paused', 'active', 'delayed', 'prioritized', 'waiting-children'];

/**
 * Lets the worker count the waiting batches (the queue was paused through
 * the burst, so the worker had the machine to itself) and times it from the
 * resume to the last batch's end, with the store's commands meanwhile.
 * @param {import('bullmq').Queue} queue @param {import('mongodb').Db} db
 */
export async function timeCounting(queue, db) {
  const commandsBefore = await storeCommands(db);
  const resumedAt = Date.now();
  await queue.resume();
  const unfinished = async () =>
    Object.values(await queue.getJobCounts(...UNFINISHED)).reduce((sum, n) => sum + n, 0);
  await until(async () => (await unfinished()) === 0, 600_000, 100);
  const commands = commandsSince(commandsBefore, await storeCommands(db));
  const jobs = await queue.getJobs(['completed']);
  const failed = await queue.getJobCountByTypes('failed');
  const counted = jobs.reduce((sum, job) => sum + Number(job.returnvalue?.counted ?? 0), 0);
  const repeated = jobs.reduce((sum, job) => sum + Number(job.returnvalue?.repeated ?? 0), 0);
  const busyMs = jobs.reduce(
    (sum, job) => sum + Math.max(0, (job.finishedOn ?? 0) - (job.processedOn ?? 0)),
    0,
  );
  const lastAt = Math.max(...jobs.map((job) => job.finishedOn ?? 0));
  return {
    counted,
    repeated,
    failed,
    batches: jobs.length,
    seconds: (lastAt - resumedAt) / 1000,
    busyMsPerBatch: busyMs / Math.max(1, jobs.length),
    commands,
  };
}

/**
 * The report, its CSV and the campaign list's first page, each timed.
 * @param {string} apiUrl @param {string} campaignId @param {{ authorization: string }} headers
 * @param {{ times: number, warmUp: number }} count
 */
export async function timeReportReads(apiUrl, campaignId, headers, count) {
  const report = API_ROUTES.campaignReport.replace(':id', campaignId);
  const reportExport = API_ROUTES.campaignReportExport.replace(':id', campaignId);
  return {
    report: await timeStaffRead(apiUrl, report, headers, count),
    reportExport: await timeStaffRead(apiUrl, reportExport, headers, count),
    list: await timeStaffRead(apiUrl, `${API_ROUTES.campaigns}?page=1&pageSize=20`, headers, count),
  };
}
