import { ImapFlow } from 'imapflow';
import {
  recordMailEvents,
  type Logger,
  type MailIdentityKey,
  type SubscriberChanges,
} from '@agency/platform';
import { readDsn, type DsnReading } from './dsn-report';
import { mailboxLabel, type BounceMailboxSettings } from './bounce-mailbox-settings';

/** What one poll found. */
export interface BouncePollReport {
  /** Unseen messages read. */
  read: number;
  /** Delivery reports whose bounces were recorded and that were moved to the processed folder. */
  reports: number;
  /** Bounces recorded for the first time, and those recorded before (a report read again). */
  recorded: number;
  duplicates: number;
  /**
   * Reports none of whose bounces names a mail we sent to its recipient
   * (backscatter of mail forged in our name, a report that quotes nothing
   * and came back to a shared address, a forged report): nothing recorded,
   * flagged seen and left where they are.
   */
  unmatched: number;
  /** Bounces, in any report, that named no mail we sent to their recipient: neither stored nor applied. */
  unmatchedBounces: number;
  /** Other mail (auto-replies, read receipts...): flagged seen and left where it is. */
  notReports: number;
  /** Reports too broken to read: logged, flagged seen and left where they are. */
  malformed: number;
}

export interface BouncePollOptions {
  settings: BounceMailboxSettings;
  changes: SubscriberChanges;
  /** Checks that a report names a mail we sent to the recipient it reports on. */
  identityKey: MailIdentityKey;
  logger: Logger;
  /** Messages fetched, then handled, at a time: bounds the memory a full mailbox takes. */
  batchSize?: number;
  /**
   * Bytes read of each message. A report's status part comes first and a
   * returned mail can quote a large original: the rest is never needed.
   */
  maxMessageBytes?: number;
}

const DEFAULT_BATCH_SIZE = 50;
const DEFAULT_MAX_MESSAGE_BYTES = 1024 * 1024;

function batchesOf<T>(items: readonly T[], size: number): T[][] {
  const batches: T[][] = [];
  for (let at = 0; at < items.length; at += size) batches.push(items.slice(at, at + size));
  return batches;
}

/**
 * Records the bounces one message reports, and says which count it goes
 * to: only `reports` are moved, the rest stay in place for a person. The
 * mailbox takes mail from anyone, so only a bounce of a mail we sent to
 * that very address (its Message-ID or return path names it, with the
 * recipient's keyed digest) is recorded; recordMailEvents counts and logs
 * the others.
 */
async function recordReading(
  reading: DsnReading,
  options: Pick<BouncePollOptions, 'changes' | 'identityKey' | 'logger'>,
): Promise<{
  counted: 'reports' | 'unmatched' | 'notReports' | 'malformed';
  recorded: number;
  duplicates: number;
  unmatched: number;
}> {
  if (reading.kind !== 'report') {
    const counted = reading.kind === 'malformed' ? 'malformed' : 'notReports';
    return { counted, recorded: 0, duplicates: 0, unmatched: 0 };
  }
  const outcome = await recordMailEvents(reading.events, options);
  const noneOurs = outcome.unmatched > 0 && outcome.unmatched === reading.events.length;
  return { counted: noneOurs ? 'unmatched' : 'reports', ...outcome };
}

function connect(settings: BounceMailboxSettings, logger: Logger): ImapFlow {
  const client = new ImapFlow({
    host: settings.host,
    port: settings.port,
    secure: settings.secure,
    ...(settings.secure ? {} : { doSTARTTLS: settings.requireTls ? true : undefined }),
    auth: { user: settings.user, pass: settings.password },
    logger: false,
    disableAutoIdle: true,
    connectionTimeout: 30_000,
    greetingTimeout: 16_000,
    socketTimeout: 120_000,
  });
  // A dropped connection is reported here as well as to the pending command:
  // unheard, the event would end the process.
  client.on('error', (error: Error) => {
    logger.warn(
      { ...mailboxLabel(settings), err: error.message },
      'bounce mailbox connection error',
    );
  });
  return client;
}

/**
 * One pass over the bounce mailbox: every unseen message is read; a
 * delivery report's bounces are recorded (a hard bounce suppresses its
 * address, soft ones are counted), then the report is flagged seen and
 * moved to the processed folder. Anything else is flagged seen and left in
 * place for a person to read. A message is flagged only after its events
 * are stored, so a pass cut short (the store or the server gone) leaves it
 * unseen for the next pass, and reading a report twice records nothing
 * twice. Throws when the mailbox cannot be reached or the store fails.
 */
export async function pollBounceMailbox({
  settings,
  changes,
  identityKey,
  logger,
  batchSize = DEFAULT_BATCH_SIZE,
  maxMessageBytes = DEFAULT_MAX_MESSAGE_BYTES,
}: BouncePollOptions): Promise<BouncePollReport> {
  const report: BouncePollReport = {
    read: 0,
    reports: 0,
    recorded: 0,
    duplicates: 0,
    unmatched: 0,
    unmatchedBounces: 0,
    notReports: 0,
    malformed: 0,
  };
  const client = connect(settings, logger);
  await client.connect();
  try {
    const lock = await client.getMailboxLock(settings.mailbox);
    let folderReady = false;
    try {
      const unseen = (await client.search({ seen: false }, { uid: true })) || [];
      for (const batch of batchesOf(unseen, batchSize)) {
        // No other command may run while a fetch streams: read the batch, then act.
        const messages: { uid: number; source: Buffer }[] = [];
        for await (const message of client.fetch(
          batch,
          { uid: true, source: { maxLength: maxMessageBytes } },
          { uid: true },
        )) {
          if (message.source) messages.push({ uid: message.uid, source: message.source });
        }
        const processed: number[] = [];
        const leftInPlace: number[] = [];
        for (const { uid, source } of messages) {
          report.read += 1;
          const reading = await readDsn(source);
          const outcome = await recordReading(reading, { changes, identityKey, logger });
          report[outcome.counted] += 1;
          report.recorded += outcome.recorded;
          report.duplicates += outcome.duplicates;
          report.unmatchedBounces += outcome.unmatched;
          if (reading.kind === 'malformed') {
            logger.warn(
              { ...mailboxLabel(settings), uid, reason: reading.reason },
              'unreadable delivery report left in the bounce mailbox',
            );
          }
          (outcome.counted === 'reports' ? processed : leftInPlace).push(uid);
        }
        if (leftInPlace.length > 0) {
          await client.messageFlagsAdd(leftInPlace, ['\\Seen'], { uid: true });
        }
        if (processed.length > 0) {
          await client.messageFlagsAdd(processed, ['\\Seen'], { uid: true });
          if (!folderReady) {
            await client.mailboxCreate(settings.processedFolder);
            folderReady = true;
          }
          await client.messageMove(processed, settings.processedFolder, { uid: true });
        }
      }
    } finally {
      lock.release();
    }
  } finally {
    await client.logout().catch(() => client.close());
  }
  return report;
}
