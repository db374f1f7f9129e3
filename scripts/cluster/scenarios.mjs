// @ts-check
/**
 * The four scenarios of `npm run test:cluster`. Each starts the product on
 * the cluster's hosts with a database and queue prefix of its own, does
 * what it names while traffic flows, then checks what the SMTP sink
 * received against what the store holds, and prints what it saw.
 *
 * 1. A campaign while a worker host dies (SIGKILL of every process there)
 *    and another host's link is cut for 10 s.
 * 2. A campaign while the Redis primary is killed: Sentinel promotes the
 *    replica.
 * 3. Enquiries at 50/s through the load balancer for 30 s while an API
 *    host dies.
 * 4. Redis emptied (FLUSHALL) in the middle of a campaign and of enquiries.
 */
import { randomBytes } from 'node:crypto';
import {
  AGENCY_INBOX,
  CAMPAIGN_CONCURRENCY,
  productEnvironment,
  startProduct,
} from './cluster.mjs';
import { ledgerAttempts } from './campaign-ledger.mjs';
import { apiClient, deliveriesByRecipient, openStore, redisProbe, sink, until } from './probes.mjs';
import { hostsOf } from './network.mjs';

/** A batch being sent has one mail in flight: a worker process has this many. */
const IN_FLIGHT_PER_WORKER = CAMPAIGN_CONCURRENCY;
/** A campaign that delivers nothing for this long is reported as stalled. */
const CAMPAIGN_STALL_MS = 90_000;

/**
 * @typedef {object} ScenarioContext
 * @property {string} rootDir
 * @property {ReturnType<typeof import('./network.mjs').clusterNetwork>} network
 * @property {Awaited<ReturnType<typeof import('./cluster.mjs').startInfrastructure>>} infra
 * @property {ReturnType<typeof import('./probes.mjs').productPackages>} packages
 * @property {number} recipients campaign size
 * @property {boolean} verbose
 *
 * @typedef {{ what: string, figure: string | number, check?: boolean }} Row
 * @typedef {{ passed: boolean, rows: Row[], notes: string[] }} Outcome
 */

/** @param {number} ms */
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const seconds = (/** @type {number} */ ms) => `${(ms / 1000).toFixed(1)} s`;

/**
 * Starts the product for one scenario and gives it what it needs.
 * @param {ScenarioContext} context
 * @param {number} number
 * @param {(scenario: Awaited<ReturnType<typeof prepare>>) => Promise<Outcome>} body
 * @returns {Promise<Outcome>}
 */
async function withProduct(context, number, body) {
  const stamp = Date.now().toString(36);
  const database = `cluster_s${number}_${stamp}`;
  const env = productEnvironment({
    database,
    queuePrefix: `cluster${number}${stamp}`,
    secret: randomBytes(24).toString('hex'),
  });
  await sink.reset();
  const product = await startProduct({ ...context, env });
  const store = await openStore(context.packages, database);
  const redis = redisProbe(context.packages);
  /** @type {Awaited<ReturnType<typeof prepare>> | undefined} */
  let scenario;
  try {
    scenario = await prepare(context, env, product, store, redis);
    return await body(scenario);
  } finally {
    await scenario?.sendQueue.close();
    redis.close();
    await store.close();
    await product.stop();
  }
}

/**
 * @param {ScenarioContext} context
 * @param {NodeJS.ProcessEnv} env
 * @param {Awaited<ReturnType<typeof startProduct>>} product
 * @param {Awaited<ReturnType<typeof openStore>>} store
 * @param {ReturnType<typeof redisProbe>} redis
 */
async function prepare(context, env, product, store, redis) {
  const { Queue } = context.packages.bullmq;
  const sendQueue = new Queue('campaign-send', {
    connection: redis.connection,
    prefix: env.QUEUE_PREFIX,
  });
  sendQueue.on('error', () => undefined);
  // Every worker host has its workers on the queue before anything is sent.
  const workers = hostsOf('worker').length;
  await until(
    async () => (await sendQueue.getWorkersCount()) >= workers,
    90_000,
    `${workers} worker hosts listening`,
  );
  const api = apiClient();
  await api.signIn();
  return { context, env, product, store, redis, api, sendQueue };
}

/**
 * @typedef {Awaited<ReturnType<typeof prepare>>} Scenario
 */

const recipientEmail = (/** @type {number} */ index) => `r${index}@recipients.test`;

/**
 * Sends a campaign to `count` stored recipients; when half of them have
 * their mail, runs `disrupt`; waits until the campaign ends or stalls.
 * @param {Scenario} scenario
 * @param {() => Promise<void>} disrupt
 */
async function runCampaign(scenario, disrupt) {
  const count = scenario.context.recipients;
  await scenario.store.seedContacts(count, recipientEmail);
  const startedAt = Date.now();
  const id = await scenario.api.sendCampaign(`Cluster campaign ${startedAt}`);
  const prefix = `<campaign-${id}-`;
  await until(
    async () => (await sink.count(prefix)) >= count / 2,
    10 * 60_000,
    'half of the campaign mailed',
  );
  const halfAt = Date.now();
  const mailedBefore = await sink.count(prefix);
  const disruption = disrupt();

  /** @type {Awaited<ReturnType<Scenario['api']['progress']>> | undefined} */
  let progress;
  let lastCount = -1;
  let lastChange = Date.now();
  let stalled = false;
  for (;;) {
    progress = await scenario.api.progress(id).catch(() => progress);
    if (progress && ['sent', 'failed', 'cancelled'].includes(progress.status)) break;
    const now = await sink.count(prefix).catch(() => lastCount);
    if (now !== lastCount) {
      lastCount = now;
      lastChange = Date.now();
    } else if (Date.now() - lastChange > CAMPAIGN_STALL_MS) {
      stalled = true;
      break;
    }
    await sleep(500);
  }
  await disruption;
  const endedAt = Date.now();

  const report = await sink.report();
  const deliveries = deliveriesByRecipient(report, (messageId) => messageId.startsWith(prefix));
  let missing = 0;
  for (let index = 0; index < count; index += 1) {
    if (!deliveries.has(recipientEmail(index))) missing += 1;
  }
  const duplicated = [...deliveries].filter(([, times]) => times > 1);
  const duplicates = duplicated.reduce((sum, [, times]) => sum + times - 1, 0);
  const attempts = await ledgerAttempts(scenario.store.db, scenario.context.packages.mongoose, id);
  const named = duplicated.filter(([email]) => (attempts.get(email) ?? 1) > 1).length;
  const times = report.messages
    .filter(([, messageId]) => messageId.startsWith(prefix))
    .map(([at]) => at)
    .sort((a, b) => a - b);
  return {
    id,
    progress,
    stalled,
    missing,
    duplicates,
    duplicatedRecipients: duplicated.length,
    namedInLedger: named,
    halfAt,
    mailedBefore,
    startedAt,
    endedAt,
    times,
    sendQueue: await scenario.sendQueue.getJobCounts().catch(() => ({})),
  };
}

/** @param {Awaited<ReturnType<typeof runCampaign>>} run @param {number} recipients */
function campaignRows(run, recipients) {
  const status = run.stalled
    ? `${run.progress?.status ?? 'unknown'}, stalled (nothing mailed for ${seconds(CAMPAIGN_STALL_MS)})`
    : (run.progress?.status ?? 'unknown');
  const first = run.times[0] ?? run.startedAt;
  const last = run.times.at(-1) ?? run.endedAt;
  return [
    { what: 'recipients', figure: recipients },
    { what: 'campaign status at the end', figure: status, check: run.progress?.status === 'sent' },
    {
      // Enquiries that arrive while the audience is read join it: the
      // campaign's own total, at least the recipients seeded, is the count.
      what: 'sent / failed of the campaign’s total',
      figure: `${run.progress?.sentCount ?? '?'} / ${run.progress?.failedCount ?? '?'} of ${run.progress?.total ?? '?'}`,
      check:
        (run.progress?.total ?? 0) >= recipients &&
        run.progress?.sentCount === run.progress?.total &&
        run.progress?.failedCount === 0,
    },
    { what: 'recipients missed (sink)', figure: run.missing, check: run.missing === 0 },
    {
      what: 'duplicate mails (sink), recipients concerned',
      figure: `${run.duplicates}, ${run.duplicatedRecipients}`,
    },
    {
      what: 'of those recipients, named by the ledger (attempts > 1)',
      figure: run.namedInLedger,
    },
    {
      what: 'mailed when the disruption began',
      figure: run.mailedBefore,
    },
    {
      what: 'from the disruption to the last mail',
      figure: seconds(last - run.halfAt),
    },
    {
      what: 'delivery, first to last mail',
      figure: `${seconds(last - first)}, ${Math.round(run.times.length / Math.max((last - first) / 1000, 0.001))} msg/s`,
    },
    {
      what: 'campaign jobs left in Redis (waiting, active, delayed, failed)',
      figure: ['waiting', 'active', 'delayed', 'failed']
        .map((state) => /** @type {Record<string, number>} */ (run.sendQueue)[state] ?? 0)
        .join(', '),
    },
  ];
}

/**
 * The longest time without any campaign mail accepted, from `from` on.
 * @param {number[]} times sorted
 * @param {number} from
 */
function longestGapAfter(times, from) {
  let longest = 0;
  let previous = from;
  for (const at of times) {
    if (at < from) continue;
    longest = Math.max(longest, at - previous);
    previous = at;
  }
  return longest;
}

/** @param {Row[]} rows @param {string[]} [notes] @returns {Outcome} */
function outcomeOf(rows, notes = []) {
  return { passed: rows.every((row) => row.check !== false), rows, notes };
}

/** 1. A campaign while a worker host dies and another one's link is cut. */
export function campaignWhileAWorkerHostDies(/** @type {ScenarioContext} */ context) {
  return withProduct(context, 1, async (scenario) => {
    const [killed, cut] = hostsOf('worker');
    if (!killed || !cut) throw new Error('the layout has three worker hosts');
    let killedProcesses = 0;
    const run = await runCampaign(scenario, async () => {
      killedProcesses = await context.network.killHost(killed);
      await context.network.cutLink(cut, 10_000);
    });
    const bound = IN_FLIGHT_PER_WORKER * Math.max(killedProcesses, 1);
    const rows = [
      ...campaignRows(run, context.recipients),
      { what: `processes SIGKILLed on ${killed.name} half-way`, figure: killedProcesses },
      { what: `link of ${cut.name} cut`, figure: '10 s, from half-way' },
      {
        what: `duplicates within the mails in flight on ${killed.name} (at most ${bound})`,
        figure: run.duplicates,
        check: run.duplicates <= bound,
      },
      {
        what: 'every duplicated recipient named by the ledger',
        figure: `${run.namedInLedger} of ${run.duplicatedRecipients}`,
        check: run.namedInLedger === run.duplicatedRecipients,
      },
    ];
    return outcomeOf(rows);
  });
}

/** 2. The Redis primary killed half-way through a campaign. */
export function campaignWhileTheRedisPrimaryDies(/** @type {ScenarioContext} */ context) {
  return withProduct(context, 2, async (scenario) => {
    const primary = await scenario.redis.primaryHost();
    let killedAt = 0;
    let promotedAfter = Number.NaN;
    /** @type {import('./network.mjs').Host | undefined} */
    let promoted;
    const run = await runCampaign(scenario, async () => {
      killedAt = Date.now();
      await context.network.killHost(primary);
      await until(
        async () => (await scenario.redis.primaryHost()).name !== primary.name,
        60_000,
        'a replica promoted',
        100,
      );
      promotedAfter = Date.now() - killedAt;
      promoted = await scenario.redis.primaryHost();
    });
    // Back as a replica of the new primary, for the scenarios that follow.
    if (promoted) await context.infra.restartRedis(primary, promoted);
    const stall = longestGapAfter(run.times, killedAt);
    const bound = IN_FLIGHT_PER_WORKER * hostsOf('worker').length;
    const rows = [
      ...campaignRows(run, context.recipients),
      { what: `Redis primary ${primary.name} SIGKILLed`, figure: 'half-way' },
      {
        what: 'replica promoted by the Sentinels after',
        figure: `${seconds(promotedAfter)} (${promoted?.name ?? 'none'})`,
        check: Boolean(promoted),
      },
      {
        what: 'sending stalled (longest gap between two mails after the kill)',
        figure: seconds(stall),
      },
      {
        what: `duplicates within the mails in flight on every worker (at most ${bound})`,
        figure: run.duplicates,
        check: run.duplicates <= bound,
      },
    ];
    return outcomeOf(rows);
  });
}

/**
 * @typedef {{ index: number, email: string, status: number | string, id?: string, ms: number }} EnquiryResult
 */

/**
 * Posts enquiries through the load balancer at `perSecond`, each on its own
 * schedule (an open loop: a slow answer does not slow the next request),
 * until `stop()` resolves; answers every request's fate.
 * @param {Scenario} scenario
 * @param {number} perSecond
 * @param {Promise<unknown>} stop
 * @param {string} tag
 */
async function postEnquiries(scenario, perSecond, stop, tag) {
  let stopped = false;
  stop.then(() => (stopped = true));
  /** @type {Promise<EnquiryResult>[]} */
  const requests = [];
  const startedAt = performance.now();
  for (let index = 0; !stopped; index += 1) {
    const due = startedAt + (index * 1000) / perSecond;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    if (stopped) break;
    const email = `visitor-${tag}-${index}@enquiries.test`;
    const sentAt = performance.now();
    requests.push(
      fetch(`${scenario.api.base}/api/contact`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          firstName: 'Visitor',
          lastName: `Number ${index}`,
          email,
          service: 'branding',
          message: `Enquiry ${index} of the cluster test, sent through the load balancer.`,
          locale: 'en',
        }),
        signal: AbortSignal.timeout(15_000),
      }).then(
        async (response) => {
          const body = /** @type {{ id?: string }} */ (await response.json().catch(() => ({})));
          return {
            index,
            email,
            status: response.status,
            id: body.id,
            ms: performance.now() - sentAt,
          };
        },
        (/** @type {Error & { cause?: { code?: string } }} */ error) => ({
          index,
          email,
          status:
            error.name === 'TimeoutError'
              ? 'no answer in 15 s'
              : `connection lost (${error.cause?.code ?? error.message})`,
          ms: performance.now() - sentAt,
        }),
      ),
    );
  }
  return Promise.all(requests);
}

/**
 * The enquiry mails in the sink's report, by `notification:<id>` or
 * `ack:<id>`: how often each came and to whom, and when the last one came.
 * @param {Awaited<ReturnType<typeof sink.report>>} report
 */
function enquiryMailsIn(report) {
  /** @type {Map<string, { times: number, recipients: Set<string> }>} */
  const ids = new Map();
  let lastAt = 0;
  for (const [at, messageId, recipients] of report.messages) {
    // `<contact-[ack-]<id>-k<recipient digest>@domain>`
    const match = /^<contact-(ack-)?([0-9a-f]{24})-k[0-9a-f]{20}@/.exec(messageId);
    if (!match) continue;
    const key = `${match[1] ? 'ack' : 'notification'}:${match[2]}`;
    const entry = ids.get(key) ?? { times: 0, recipients: new Set() };
    entry.times += 1;
    for (const recipient of recipients) entry.recipients.add(recipient);
    ids.set(key, entry);
    lastAt = Math.max(lastAt, at);
  }
  return { ids, lastAt };
}

/**
 * What each stored enquiry's two mails came to: missing, sent twice, or
 * sent to someone else.
 * @param {Map<string, string>} stored enquiry id by address
 * @param {ReturnType<typeof enquiryMailsIn>['ids']} ids
 */
function tallyEnquiryMails(stored, ids) {
  const tally = { notificationsMissing: 0, acksMissing: 0, duplicates: 0, misaddressed: 0 };
  for (const [email, id] of stored) {
    const notification = ids.get(`notification:${id}`);
    const ack = ids.get(`ack:${id}`);
    if (!notification) tally.notificationsMissing += 1;
    if (!ack) tally.acksMissing += 1;
    tally.duplicates +=
      Math.max((notification?.times ?? 0) - 1, 0) + Math.max((ack?.times ?? 0) - 1, 0);
    if (notification && [...notification.recipients].some((to) => to !== AGENCY_INBOX))
      tally.misaddressed += 1;
    if (ack && [...ack.recipients].some((to) => to !== email)) tally.misaddressed += 1;
  }
  return tally;
}

/** @param {EnquiryResult[]} created @returns {(p: number) => string} */
function latencyPercentiles(created) {
  const latencies = created.map((result) => result.ms).sort((a, b) => a - b);
  return (p) =>
    latencies.length
      ? `${Math.round(latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] ?? 0)} ms`
      : '-';
}

/** "3: 2 x 503, 1 x 0", or 0. @param {EnquiryResult[]} failed */
function failureSummary(failed) {
  const failures = new Map();
  for (const result of failed) failures.set(result.status, (failures.get(result.status) ?? 0) + 1);
  return failed.length
    ? `${failed.length}: ${[...failures].map(([how, n]) => `${n} x ${how}`).join(', ')}`
    : 0;
}

/**
 * The scenario's stored enquiries, by address, once every one is mailed to
 * the agency and acknowledged (or the wait gave up: `allMailed` false).
 * @param {Scenario} scenario
 * @param {Map<string, EnquiryResult>} byEmail
 */
async function waitForEnquiryMails(scenario, byEmail) {
  const storedAll = await scenario.store.contactIdsByEmail();
  // The scenario's enquiries only (a campaign's recipients share the collection).
  const stored = new Map([...storedAll].filter(([email]) => byEmail.has(email)));
  const mailedAll = async () => {
    const { ids } = enquiryMailsIn(await sink.report());
    return [...stored.values()].every(
      (id) => ids.has(`notification:${id}`) && ids.has(`ack:${id}`),
    );
  };
  let allMailed = true;
  await until(mailedAll, 180_000, 'every stored enquiry mailed').catch(() => (allMailed = false));
  // Late duplicates would come with the relay's next passes: give them one.
  await sleep(6000);
  return { stored, allMailed };
}

/**
 * Waits until every stored enquiry is mailed to the agency and acknowledged,
 * then counts, for each request, what happened to it.
 * @param {Scenario} scenario
 * @param {EnquiryResult[]} results
 * @param {{ at: number, what: string }} since the moment the last mail is timed from
 */
async function checkEnquiries(scenario, results, since) {
  const byEmail = new Map(results.map((result) => [result.email, result]));
  const { stored, allMailed } = await waitForEnquiryMails(scenario, byEmail);
  const { ids, lastAt } = enquiryMailsIn(await sink.report());
  const created = results.filter((result) => result.status === 201);
  const failed = results.filter((result) => result.status !== 201);
  const createdNotStored = created.filter((result) => stored.get(result.email) !== result.id);
  const failedButStored = failed.filter((result) => stored.has(result.email));
  const tally = tallyEnquiryMails(stored, ids);
  const percentile = latencyPercentiles(created);
  /** @type {Row[]} */
  return [
    { what: 'enquiries posted', figure: results.length },
    { what: 'answered 201', figure: created.length },
    { what: 'failed (and how)', figure: failureSummary(failed) },
    {
      what: 'answered 201 but not stored',
      figure: createdNotStored.length,
      check: createdNotStored.length === 0,
    },
    { what: 'failed but stored all the same (mailed too)', figure: failedButStored.length },
    { what: 'latency of the 201s, p50 / p99', figure: `${percentile(0.5)} / ${percentile(0.99)}` },
    {
      what: 'stored enquiries without their mail to the agency',
      figure: tally.notificationsMissing,
      check: tally.notificationsMissing === 0,
    },
    {
      what: 'stored enquiries without their acknowledgement',
      figure: tally.acksMissing,
      check: tally.acksMissing === 0,
    },
    { what: 'mails sent twice', figure: tally.duplicates, check: tally.duplicates === 0 },
    {
      what: 'mails to the wrong address',
      figure: tally.misaddressed,
      check: tally.misaddressed === 0,
    },
    {
      what: `every stored enquiry mailed; the last mail after ${since.what}`,
      figure: allMailed ? seconds(lastAt - since.at) : 'no: see above',
      check: allMailed,
    },
  ];
}

/** 3. Enquiries at 50/s for 30 s through the load balancer; one API host dies at 10 s. */
export function enquiriesWhileAnApiHostDies(/** @type {ScenarioContext} */ context) {
  return withProduct(context, 3, async (scenario) => {
    const [killed] = hostsOf('api');
    if (!killed) throw new Error('the layout has two API hosts');
    let killedProcesses = 0;
    const kill = sleep(10_000).then(async () => {
      killedProcesses = await context.network.killHost(killed);
    });
    const results = await postEnquiries(scenario, 50, sleep(30_000), 's3');
    const loadEndedAt = Date.now();
    await kill;
    const rows = await checkEnquiries(scenario, results, {
      at: loadEndedAt,
      what: 'the last request',
    });
    rows.unshift({
      what: `processes SIGKILLed on ${killed.name} at 10 s`,
      figure: killedProcesses,
    });
    return outcomeOf(rows);
  });
}

/**
 * 4. FLUSHALL in the middle of a campaign and of enquiries. Three workers
 * mail an enquiry within milliseconds, so FLUSHALL would seldom find one
 * queued: the enquiry queue is paused for the 3 s before it, and the jobs
 * of the enquiries that came meanwhile are lost with everything else (the
 * pause too).
 */
export function redisEmptiedMidway(/** @type {ScenarioContext} */ context) {
  return withProduct(context, 4, async (scenario) => {
    const { Queue } = context.packages.bullmq;
    const enquiryQueue = new Queue('contact-mail', {
      connection: scenario.redis.connection,
      prefix: scenario.env.QUEUE_PREFIX,
    });
    enquiryQueue.on('error', () => undefined);
    let flushedAt = 0;
    let enquiryJobsLost = 0;
    let campaignJobsLost = 0;
    /** @type {() => void} */
    let stopEnquiries = () => undefined;
    const enquiriesStop = new Promise((resolve) => (stopEnquiries = () => resolve(undefined)));
    const enquiries = postEnquiries(scenario, 20, enquiriesStop, 's4');
    try {
      const run = await runCampaign(scenario, async () => {
        await enquiryQueue.pause();
        await sleep(3000);
        enquiryJobsLost = await enquiryQueue.getWaitingCount();
        const counts = await scenario.sendQueue.getJobCounts('waiting', 'active', 'delayed');
        campaignJobsLost = Object.values(counts).reduce((sum, count) => sum + count, 0);
        flushedAt = Date.now();
        await scenario.redis.connection.flushall();
        // Enquiries go on for 10 s after Redis lost everything.
        await sleep(10_000);
        stopEnquiries();
      });
      stopEnquiries();
      const enquiryRows = await checkEnquiries(scenario, await enquiries, {
        at: flushedAt,
        what: 'FLUSHALL',
      });
      const bound = IN_FLIGHT_PER_WORKER * hostsOf('worker').length;
      const rows = [
        { what: 'FLUSHALL on the Redis primary', figure: 'half-way through the campaign' },
        { what: 'campaign batch jobs in Redis when it was emptied', figure: campaignJobsLost },
        ...campaignRows(run, context.recipients),
        {
          what: 'sending stalled (longest gap between two campaign mails after FLUSHALL)',
          figure: seconds(longestGapAfter(run.times, flushedAt)),
        },
        {
          what: `duplicates within the mails in flight on every worker (at most ${bound})`,
          figure: run.duplicates,
          check: run.duplicates <= bound,
        },
        {
          what: 'enquiries: jobs queued in Redis when it was emptied',
          figure: enquiryJobsLost,
          check: enquiryJobsLost > 0,
        },
        ...enquiryRows.map((row) => ({ ...row, what: `enquiries: ${row.what}` })),
      ];
      return outcomeOf(rows);
    } finally {
      stopEnquiries();
      await enquiryQueue.close();
    }
  });
}

export const SCENARIOS = {
  1: { title: 'campaign while a worker host dies', run: campaignWhileAWorkerHostDies },
  2: { title: 'campaign while the Redis primary dies', run: campaignWhileTheRedisPrimaryDies },
  3: { title: 'enquiries while an API host dies', run: enquiriesWhileAnApiHostDies },
  4: { title: 'Redis emptied mid-campaign and mid-enquiries', run: redisEmptiedMidway },
};
