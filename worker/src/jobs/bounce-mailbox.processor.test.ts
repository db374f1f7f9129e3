import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { Types } from 'mongoose';
import { pino } from 'pino';
import { Queue, QueueEvents, Worker, type Processor } from 'bullmq';
import type { ImapFlow } from 'imapflow';
import { QUEUE_NAMES, type BounceMailboxJob, type QueueName } from '@agency/contracts';
import {
  campaignMessageId,
  campaignReturnPath,
  createKeptCounts,
  createRedisConnection,
  legacyRecipientDigest,
  mailIdentityKey,
  type MailIdentityKey,
  type Redis,
  type SubscriberChanges,
} from '@agency/platform';
import { MailEventModel, SuppressionModel } from '@agency/platform/testing/audience-models';
import { recordSentRound } from '@agency/platform/testing/sent-rounds';
import { freePort } from '@agency/platform/testing/own-redis';
import { pollBounceMailbox, type BouncePollReport } from '../bounces/bounce-mailbox';
import { startDovecot, type OwnDovecot } from '../testing/dovecot';
import { postfixDsn, reportOnMany } from '../testing/dsn-messages';
import { createPipelineContext, type PipelineContext } from '../testing/pipeline-context';
import {
  bounceMailboxProcessor,
  startBounceMailboxPolling,
  type BounceMailboxOutcome,
} from './bounce-mailbox.processor';

/** A logger whose lines the test can read. */
function recordingLogger() {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  return { logger: pino({ level: 'info' }, sink), lines };
}

const RETURN_PATH = 'bounces@agency.test';
const campaignId = new Types.ObjectId().toHexString();
/** The round's ledger holds these: the mails the reports below answer were sent to them. */
const MAILED = [
  'gone@example.tn',
  'full@example.tn',
  'left@example.tn',
  'amel@example.tn',
  'bilel@example.tn',
];

/** Reports as servers return mail of the campaign's first round, keyed with the worker's secret. */
function reportsOf(key: MailIdentityKey) {
  return {
    hardBounce: postfixDsn({
      id: '20261126090000.HARD1@mx.example.tn',
      recipient: 'gone@example.tn',
      action: 'failed',
      status: '5.1.1',
      diagnostic: '550 5.1.1 <gone@example.tn>: Recipient address rejected: User unknown',
      returnedTo: campaignReturnPath(key, RETURN_PATH, campaignId, 1, 'gone@example.tn'),
      originalMessageId: campaignMessageId(key, campaignId, 1, 'gone@example.tn', 'agency.test'),
    }),
    // Only the return path it came back to names this one's campaign mail.
    softBounce: postfixDsn({
      id: '20261126090000.SOFT1@mx.example.tn',
      recipient: 'full@example.tn',
      action: 'delayed',
      status: '4.2.2',
      diagnostic: '452 4.2.2 Mailbox full',
      returnedTo: campaignReturnPath(key, RETURN_PATH, campaignId, 1, 'full@example.tn'),
    }),
    // Backscatter: a bounce of mail someone else sent in our name names no mail of ours.
    backscatter: postfixDsn({
      id: '20261126090000.BACK1@mx.example.tn',
      recipient: 'stranger@example.tn',
      action: 'failed',
      status: '5.1.1',
      diagnostic: '550 5.1.1 <stranger@example.tn>: User unknown',
      returnedTo: 'news@agency.test',
    }),
  };
}
const autoReply = readFileSync(join(__dirname, '../bounces/fixtures/auto-reply.eml'));
const brokenReport = readFileSync(join(__dirname, '../bounces/fixtures/missing-status.eml'));

/** Every message of a folder: its subject and whether it is flagged seen. */
async function folder(client: ImapFlow, path: string) {
  const lock = await client.getMailboxLock(path);
  try {
    // The folder may be the one already selected: have the server tell what arrived since.
    await client.noop();
    const messages: { subject: string; seen: boolean }[] = [];
    for await (const message of client.fetch('1:*', { envelope: true, flags: true })) {
      messages.push({
        subject: message.envelope?.subject ?? '',
        seen: message.flags?.has('\\Seen') ?? false,
      });
    }
    return messages.sort((a, b) => a.subject.localeCompare(b.subject));
  } finally {
    lock.release();
  }
}

describe('the bounce mailbox job, against a real Dovecot', () => {
  let ctx: PipelineContext;
  let dovecot: OwnDovecot;
  let client: ImapFlow;
  let connection: Redis;
  let changes: SubscriberChanges;
  let identityKey: MailIdentityKey;
  let reports: ReturnType<typeof reportsOf>;
  beforeAll(async () => {
    ctx = await createPipelineContext();
    identityKey = mailIdentityKey(ctx.config.mailLinkSecret);
    reports = reportsOf(identityKey);
    await recordSentRound(campaignId, 1, MAILED);
    dovecot = await startDovecot();
    client = await dovecot.client();
    connection = createRedisConnection(ctx.config.redisUrl, 'consumer');
    changes = createKeptCounts(connection, {
      prefix: ctx.config.queuePrefix,
      timeZone: ctx.config.timeZone,
      logger: pino({ level: 'silent' }),
    }).subscriberChanges;
  });
  afterAll(async () => {
    await client?.logout();
    await dovecot?.close();
    connection?.disconnect();
    await ctx?.close();
  });

  it('records one pass of returned mail, moves the reports and leaves other mail seen in place', async () => {
    const { hardBounce, softBounce, backscatter } = reports;
    for (const message of [hardBounce, softBounce, backscatter, autoReply, brokenReport]) {
      await client.append('INBOX', message);
    }
    const { logger, lines } = recordingLogger();
    const eventsConnection = connection.duplicate();
    const events = new QueueEvents(QUEUE_NAMES.bounceMailbox, {
      connection: eventsConnection,
      prefix: ctx.config.queuePrefix,
    });
    await events.waitUntilReady();
    const pass = new Promise<BounceMailboxOutcome>((resolve) => {
      events.once('completed', ({ returnvalue }) =>
        resolve(returnvalue as unknown as BounceMailboxOutcome),
      );
    });
    // A new scheduler runs its first pass at once.
    const polling = await startBounceMailboxPolling({
      connection,
      queuePrefix: ctx.config.queuePrefix,
      logger,
      settings: dovecot.settings,
      changes,
      identityKey,
      pollIntervalMs: 3_600_000,
      startWorker: (name: QueueName, processor: Processor<BounceMailboxJob>, concurrency) =>
        new Worker<BounceMailboxJob>(name, processor, {
          connection,
          prefix: ctx.config.queuePrefix,
          concurrency,
        }),
    });
    try {
      expect(await pass).toEqual({
        read: 5,
        reports: 2,
        recorded: 2,
        duplicates: 0,
        unmatched: 1,
        unmatchedBounces: 1,
        notReports: 1,
        malformed: 1,
      });
    } finally {
      await polling.close();
      await events.close();
      eventsConnection.disconnect();
      const queue = new Queue(QUEUE_NAMES.bounceMailbox, {
        connection,
        prefix: ctx.config.queuePrefix,
      });
      await queue.obliterate({ force: true });
      await queue.close();
    }

    expect(await SuppressionModel.findById('gone@example.tn').lean()).toMatchObject({
      reason: 'hard-bounce',
      source: 'dsn',
      campaign: new Types.ObjectId(campaignId),
      detail: '550 5.1.1 <gone@example.tn>: Recipient address rejected: User unknown',
    });
    expect(await MailEventModel.find({ key: 'full@example.tn' }).lean()).toEqual([
      expect.objectContaining({
        provider: 'dsn',
        kind: 'soft-bounce',
        campaign: new Types.ObjectId(campaignId),
        round: 1,
      }),
    ]);
    // One soft bounce is counted; it takes three within 30 days to suppress.
    expect(await SuppressionModel.findById('full@example.tn').lean()).toBeNull();
    expect(await MailEventModel.countDocuments({ key: 'stranger@example.tn' })).toBe(0);
    expect(await SuppressionModel.findById('stranger@example.tn').lean()).toBeNull();

    // The broken report and the backscatter, for a person to look at.
    expect(await folder(client, 'INBOX')).toEqual([
      { subject: 'Automatic reply: Our autumn offers', seen: true },
      { subject: 'Undelivered Mail Returned to Sender', seen: true },
      { subject: 'Undelivered Mail Returned to Sender', seen: true },
    ]);
    expect(await folder(client, 'Processed')).toEqual([
      { subject: 'Delayed Mail (still being retried)', seen: true },
      { subject: 'Undelivered Mail Returned to Sender', seen: true },
    ]);
    expect(lines.join('')).toContain('unreadable delivery report left in the bounce mailbox');
  });

  it('changes nothing when the same reports are read again', async () => {
    const before = {
      events: await MailEventModel.countDocuments({}),
      suppressed: await SuppressionModel.countDocuments({}),
    };
    // The same two reports arrive again (a server that delivered them twice).
    await client.append('INBOX', reports.hardBounce);
    await client.append('INBOX', reports.softBounce);

    // One message at a time: each batch is fetched, recorded, flagged and moved in turn.
    const outcome = await pollBounceMailbox({
      settings: dovecot.settings,
      changes,
      identityKey,
      logger: pino({ level: 'silent' }),
      batchSize: 1,
    });

    expect(outcome).toEqual<BouncePollReport>({
      read: 2,
      reports: 2,
      recorded: 0,
      duplicates: 2,
      unmatched: 0,
      unmatchedBounces: 0,
      notReports: 0,
      malformed: 0,
    });
    expect({
      events: await MailEventModel.countDocuments({}),
      suppressed: await SuppressionModel.countDocuments({}),
    }).toEqual(before);
    expect(await MailEventModel.countDocuments({ key: 'full@example.tn' })).toBe(1);
    expect((await folder(client, 'Processed')).length).toBe(4);
    expect((await folder(client, 'INBOX')).length).toBe(3);
  });

  it('is read by a worker started with a bounce mailbox', async () => {
    await client.append(
      'INBOX',
      postfixDsn({
        id: '20261126100000.HARD2@mx.example.tn',
        recipient: 'left@example.tn',
        action: 'failed',
        status: '5.1.1',
        diagnostic: '550 5.1.1 <left@example.tn>: User unknown',
        returnedTo: campaignReturnPath(identityKey, RETURN_PATH, campaignId, 1, 'left@example.tn'),
      }),
    );
    const events = await ctx.queueEvents(QUEUE_NAMES.bounceMailbox);
    const pass = new Promise<BounceMailboxOutcome>((resolve) => {
      events.once('completed', ({ returnvalue }) =>
        resolve(returnvalue as unknown as BounceMailboxOutcome),
      );
    });
    const workers = await ctx.startWorker({
      // Nothing is sent: the SMTP server is never reached.
      smtpUrl: 'smtp://127.0.0.1:9',
      bounceMailbox: { ...dovecot.settings, pollIntervalMs: 3_600_000 },
    });
    try {
      expect(await pass).toMatchObject({ read: 1, reports: 1, recorded: 1 });
    } finally {
      await workers.close();
    }
    expect(await SuppressionModel.findById('left@example.tn').lean()).toMatchObject({
      reason: 'hard-bounce',
      source: 'dsn',
      campaign: new Types.ObjectId(campaignId),
    });
  });

  /** One pass over what the test put in the mailbox, its log lines kept. */
  async function pass() {
    const { logger, lines } = recordingLogger();
    const outcome = await pollBounceMailbox({
      settings: dovecot.settings,
      changes,
      identityKey,
      logger,
    });
    return { outcome, warnings: lines.map((line) => JSON.parse(line) as Record<string, unknown>) };
  }

  const DAY_MS = 24 * 3600 * 1000;
  const sha1MessageId = (campaign: string, email: string) =>
    `<campaign-${campaign}-r1-${legacyRecipientDigest(email)}@agency.test>`;

  it('applies nothing of a forged report naming SHA-1 identities, counts it and logs why', async () => {
    // Two of our recipients and an address never mailed: anyone can compute
    // the SHA-1 digests earlier versions put in Message-IDs.
    const victims = ['amel@example.tn', 'bilel@example.tn', 'never-mailed@example.tn'];
    const forged = (id: string, campaign: string) =>
      reportOnMany({
        id,
        recipients: victims,
        status: '5.1.1',
        references: victims.map((email) => sha1MessageId(campaign, email)),
        returnedTo: RETURN_PATH,
      });
    // A campaign id that does not exist, as in the attack; then our real
    // campaign's, whose round was sent with keyed identities.
    await client.append(
      'INBOX',
      forged('forged-1@attacker.example', randomBytes(12).toString('hex')),
    );
    await client.append('INBOX', forged('forged-2@attacker.example', campaignId));

    const { outcome, warnings } = await pass();

    expect(outcome).toMatchObject({
      read: 2,
      reports: 0,
      recorded: 0,
      unmatched: 2,
      unmatchedBounces: 6,
    });
    for (const email of victims) {
      expect(await SuppressionModel.findById(email).lean()).toBeNull();
      expect(await MailEventModel.countDocuments({ key: email })).toBe(0);
    }
    const reasons = warnings
      .filter(
        ({ msg, level }) =>
          msg === 'mail event names no mail of ours to its recipient: not applied' && level === 40,
      )
      .map(({ reason }) => reason);
    expect(reasons).toEqual([
      ...victims.map(() => 'unknown-round'),
      ...victims.map(() => 'legacy-identity-of-keyed-round'),
    ]);
  });

  it('applies nothing of a report that quotes a mail of ours to another recipient', async () => {
    // Gone's real mail (its Message-ID and return path) put on Amel's bounce.
    await client.append(
      'INBOX',
      postfixDsn({
        id: '20261126110000.OTHER@mx.example.tn',
        recipient: 'amel@example.tn',
        action: 'failed',
        status: '5.1.1',
        diagnostic: '550 5.1.1 <amel@example.tn>: User unknown',
        returnedTo: campaignReturnPath(identityKey, RETURN_PATH, campaignId, 1, 'gone@example.tn'),
        originalMessageId: campaignMessageId(
          identityKey,
          campaignId,
          1,
          'gone@example.tn',
          'agency.test',
        ),
      }),
    );

    const { outcome, warnings } = await pass();

    expect(outcome).toMatchObject({ read: 1, recorded: 0, unmatched: 1, unmatchedBounces: 1 });
    expect(await SuppressionModel.findById('amel@example.tn').lean()).toBeNull();
    expect(warnings).toEqual([expect.objectContaining({ reason: 'another-recipient' })]);
  });

  it('takes SHA-1 identities only of a round begun before keyed ones, within the window', async () => {
    const recent = new Types.ObjectId().toHexString();
    const stale = new Types.ObjectId().toHexString();
    // Rounds begun before keyed identities: their rosters carry no mark.
    await recordSentRound(recent, 1, ['old@example.tn'], {
      keyed: false,
      startedAt: new Date(Date.now() - 2 * DAY_MS),
    });
    await recordSentRound(stale, 1, ['older@example.tn', 'oldest@example.tn'], {
      keyed: false,
      startedAt: new Date(Date.now() - 15 * DAY_MS),
    });
    const legacyBounce = (id: string, campaign: string, email: string) =>
      postfixDsn({
        id,
        recipient: email,
        action: 'failed',
        status: '5.1.1',
        diagnostic: `550 5.1.1 <${email}>: User unknown`,
        returnedTo: 'news@agency.test',
        originalMessageId: sha1MessageId(campaign, email),
      });
    await client.append('INBOX', legacyBounce('legacy-1@mx.example.tn', recent, 'old@example.tn'));
    // Someone the recent round never mailed.
    await client.append('INBOX', legacyBounce('legacy-2@mx.example.tn', recent, 'amel@example.tn'));
    await client.append('INBOX', legacyBounce('legacy-3@mx.example.tn', stale, 'older@example.tn'));

    const { outcome, warnings } = await pass();

    expect(outcome).toMatchObject({ read: 3, reports: 1, recorded: 1, unmatched: 2 });
    expect(await SuppressionModel.findById('old@example.tn').lean()).toMatchObject({
      reason: 'hard-bounce',
      campaign: new Types.ObjectId(recent),
    });
    expect(await SuppressionModel.findById('amel@example.tn').lean()).toBeNull();
    expect(await SuppressionModel.findById('older@example.tn').lean()).toBeNull();
    expect(warnings.map(({ reason }) => reason).filter(Boolean)).toEqual([
      'legacy-identity-not-in-round',
      'legacy-window-closed',
    ]);
  });

  it('logs a warning, without the password, when the mailbox cannot be reached, and does not throw', async () => {
    const { logger, lines } = recordingLogger();
    const closedPort = await freePort();
    const unreachable = await bounceMailboxProcessor({
      settings: { ...dovecot.settings, port: closedPort },
      changes,
      identityKey,
      logger,
    })({} as never);
    expect(unreachable).toEqual({ unreachable: expect.any(String) });

    const refused = await bounceMailboxProcessor({
      settings: { ...dovecot.settings, password: 'not-the-password' },
      changes,
      identityKey,
      logger,
    })({} as never);
    expect(refused).toEqual({ unreachable: expect.any(String) });

    const warnings = lines.filter((line) =>
      line.includes('bounce mailbox could not be read; the next pass tries again'),
    );
    expect(warnings).toHaveLength(2);
    expect(lines.join('')).not.toContain(dovecot.settings.password);
    expect(lines.join('')).not.toContain('not-the-password');
  });
});
