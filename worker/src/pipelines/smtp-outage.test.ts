import { Worker } from 'bullmq';
import {
  createLogger,
  readMailServerState,
  type MailServerState,
  type Redis,
} from '@agency/platform';
import { startMailServerProbe } from '../jobs/mail-server-probe.processor';
import type { ScheduledJob } from '../job-schedulers';
import { createMailTransport, type MailTransport } from '../mail/transport';
import { createCampaignContext, type CampaignContext } from '../testing/campaign-context';
import { startSmtpSink, type SmtpSink } from '../testing/smtp-sink';

// A whole send with an outage in the middle, on real services.
jest.setTimeout(120_000);

const RECIPIENTS = 60;
const PROBE_MS = 500;

let ctx: CampaignContext;
let smtp: SmtpSink;
let transport: MailTransport;
let probe: ScheduledJob;
const probeWorkers: { worker: Worker; connection: Redis }[] = [];

beforeEach(async () => {
  smtp = await startSmtpSink();
  ctx = await createCampaignContext();
  transport = createMailTransport(smtp.url);
  probe = await startMailServerProbe({
    redis: ctx.redis,
    queuePrefix: ctx.queuePrefix,
    transport,
    logger: createLogger('test', 'silent'),
    everyMs: PROBE_MS,
    startWorker: (name, processor, concurrency) => {
      const connection = ctx.redis.duplicate();
      const worker = new Worker(name, processor, {
        connection,
        prefix: ctx.queuePrefix,
        concurrency,
      });
      probeWorkers.push({ worker, connection });
      return worker;
    },
  });
});
afterEach(async () => {
  await probe.close();
  for (const { worker, connection } of probeWorkers.splice(0)) {
    await worker.close();
    connection.disconnect();
  }
  transport.close();
  await ctx.close();
  await smtp.close();
});

/** Resolves with the state once `accepts` holds, looking again after each short wait. */
async function stateOnce(
  accepts: (state: MailServerState) => boolean,
  timeoutMs = 30_000,
): Promise<MailServerState> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const state = await readMailServerState(ctx.redis, ctx.queuePrefix);
    if (accepts(state)) return state;
    if (Date.now() > deadline) throw new Error(`mail server state stayed ${JSON.stringify(state)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('a campaign while the SMTP server is down', () => {
  it('notes the outage, waits without failing anyone, and mails everyone once when the server is back', async () => {
    await ctx.seedContacts(
      Array.from({ length: RECIPIENTS }, (_, index) => ({ email: `r${index}@example.tn` })),
    );
    // One mail at a time, so the server stops between two mails rather than under one.
    await ctx.startWorker(smtp.url, {
      concurrency: 1,
      batchesInFlight: 1,
      batchSize: 10,
      retryAttempts: 2,
      mailServerProbeMs: PROBE_MS,
    });
    const id = await ctx.queueCampaign({ recipientType: 'contacts' });

    await smtp.waitForCount(15);
    const stoppedAt = Date.now();
    await smtp.stop();

    const outage = await stateOnce((state) => state.status === 'unreachable');
    expect(outage).toEqual({
      status: 'unreachable',
      since: expect.any(Date),
      // Refused when a new connection is tried; the pooled connection open
      // when the server stopped ends as Nodemailer's ECONNECTION.
      lastError: expect.stringMatching(/^(ECONNREFUSED|ECONNECTION)$/),
      checkedAt: expect.any(Date),
    });
    if (outage.status === 'unreachable') {
      expect(outage.since.getTime()).toBeGreaterThanOrEqual(stoppedAt - 1000);
    }
    // Retries would have spent the batches' two attempts by now: nobody may fail of the outage.
    await new Promise((resolve) => setTimeout(resolve, PROBE_MS * 6));
    const during = await ctx.campaign(id);
    expect(during.status).not.toBe('sent');
    expect(during.failedCount ?? 0).toBe(0);

    await smtp.restart();
    await stateOnce((state) => state.status === 'reachable');
    await ctx.waitForStatus(id, ['sent'], 60_000);

    const addresses = smtp.received.flatMap((entry) => entry.envelopeTo).sort();
    expect(addresses).toEqual(
      Array.from({ length: RECIPIENTS }, (_, index) => `r${index}@example.tn`).sort(),
    );
    const ledger = await ctx.ledger(id);
    expect(ledger.filter((line) => line.state !== 'sent')).toEqual([]);
  });
});
