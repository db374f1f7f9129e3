import { createCampaignContext, type CampaignContext } from '../testing/campaign-context';
import { startSmtpSink, type SmtpSink } from '../testing/smtp-sink';
import { buildWorker, startWorkerProcess, type WorkerProcess } from '../testing/worker-process';

/**
 * The worker as a real process on real services, stopped the hard way and
 * the polite way half-way through a 2,000-recipient campaign.
 */
const RECIPIENTS = 2000;
const CONCURRENCY = 4;

let ctx: CampaignContext;
let smtp: SmtpSink;
const processes: WorkerProcess[] = [];

beforeAll(() => {
  buildWorker();
}, 180_000);

beforeEach(async () => {
  smtp = await startSmtpSink();
  ctx = await createCampaignContext();
  await ctx.seedContacts(
    Array.from({ length: RECIPIENTS }, (_, index) => ({ email: `r${index}@example.tn` })),
  );
});
afterEach(async () => {
  for (const worker of processes.splice(0)) {
    if (worker.child.exitCode === null && worker.child.signalCode === null) {
      worker.child.kill('SIGKILL');
      await worker.exited;
    }
  }
  await ctx.close();
  await smtp.close();
});

function startWorker(): Promise<WorkerProcess> {
  return startWorkerProcess({
    MONGODB_URI: ctx.mongodbUri,
    REDIS_URL: ctx.redisUrl,
    QUEUE_PREFIX: ctx.queuePrefix,
    SMTP_URL: smtp.url,
    MAIL_TO: 'inbox@agency.test',
    CAMPAIGN_CONCURRENCY: String(CONCURRENCY),
    CAMPAIGN_BATCH_SIZE: '25',
    // A dead worker's batches are taken over within about two seconds.
    CAMPAIGN_LOCK_SECONDS: '2',
  }).then((worker) => {
    processes.push(worker);
    return worker;
  });
}

/** How many mails each address received, from the sink's RCPT TO. */
function deliveries(): Map<string, number> {
  const counts = new Map<string, number>();
  for (const entry of smtp.received) {
    for (const address of entry.envelopeTo) counts.set(address, (counts.get(address) ?? 0) + 1);
  }
  return counts;
}

function missing(counts: Map<string, number>): string[] {
  return Array.from({ length: RECIPIENTS }, (_, index) => `r${index}@example.tn`).filter(
    (address) => !counts.has(address),
  );
}

function duplicated(counts: Map<string, number>): string[] {
  return [...counts].filter(([, count]) => count > 1).map(([address]) => address);
}

describe('a worker that dies mid-campaign', () => {
  it('SIGKILL: nobody missing, ends sent, duplicates only in flight and shown in the ledger', async () => {
    const first = await startWorker();
    const id = await ctx.queueCampaign({ recipientType: 'contacts' });
    await smtp.waitForCount(RECIPIENTS / 2, undefined, 60_000);
    first.child.kill('SIGKILL');
    expect(await first.exited).toBe('SIGKILL');
    const atKill = smtp.received.length;
    expect(atKill).toBeLessThan(RECIPIENTS);

    await startWorker();
    await ctx.waitForStatus(id, ['sent'], 90_000);
    const counts = deliveries();
    expect(missing(counts)).toEqual([]);
    const twice = duplicated(counts);
    expect(twice.length).toBeLessThanOrEqual(CONCURRENCY);
    expect(Math.max(...counts.values())).toBeLessThanOrEqual(2);
    // Every recipient mailed twice was in flight: its ledger line shows a second attempt.
    const sentFacts = (await ctx.ledger(id)).filter((fact) => fact.state === 'sent');
    expect(sentFacts).toHaveLength(RECIPIENTS);
    const retried = new Set(
      sentFacts.filter((fact) => (fact.attempts ?? 0) > 1).map((fact) => fact.email),
    );
    for (const address of twice) expect(retried.has(address)).toBe(true);
    expect(retried.size).toBeLessThanOrEqual(CONCURRENCY);
    expect(await ctx.campaign(id)).toMatchObject({
      status: 'sent',
      total: RECIPIENTS,
      sentCount: RECIPIENTS,
      failedCount: 0,
    });
  }, 150_000);

  it('SIGTERM: finishes its batches, and after a restart nobody is missing or mailed twice', async () => {
    const first = await startWorker();
    const id = await ctx.queueCampaign({ recipientType: 'contacts' });
    await smtp.waitForCount(RECIPIENTS / 2, undefined, 60_000);
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    expect(smtp.received.length).toBeLessThan(RECIPIENTS);

    await startWorker();
    await ctx.waitForStatus(id, ['sent'], 90_000);
    const counts = deliveries();
    expect(missing(counts)).toEqual([]);
    expect(duplicated(counts)).toEqual([]);
    expect(smtp.received).toHaveLength(RECIPIENTS);
  }, 150_000);
});

describe('two workers on one campaign', () => {
  it('share it, and each recipient gets exactly one mail', async () => {
    const [one, two] = await Promise.all([startWorker(), startWorker()]);
    const id = await ctx.queueCampaign({ recipientType: 'contacts' });
    await ctx.waitForStatus(id, ['sent'], 90_000);
    const counts = deliveries();
    expect(missing(counts)).toEqual([]);
    expect(duplicated(counts)).toEqual([]);
    expect(smtp.received).toHaveLength(RECIPIENTS);
    expect(await ctx.campaign(id)).toMatchObject({ status: 'sent', sentCount: RECIPIENTS });
    // Both took part: each logged batches it sent.
    for (const worker of [one, two]) {
      expect(worker.lines.some((line) => line.msg === 'campaign batch sent')).toBe(true);
    }
  }, 150_000);
});
