import { makeValidator } from 'envalid';
import {
  campaignEnvSpec,
  integer,
  loadEnv,
  mailbox,
  withKeptSecrets,
  sharedEnvSpec,
  toSharedConfig,
  urlOf,
  type Env,
  type SharedConfig,
} from '@agency/platform';

import type { BounceMailboxSettings } from './bounces/bounce-mailbox-settings';
import type { CampaignSendSettings } from './campaigns';

const siteUrl = urlOf('http:', 'https:');

/**
 * `imaps://user:password@host:993/INBOX`. Its reasons never repeat the value:
 * it holds the mailbox's password.
 */
const imapUrl = makeValidator<string>((raw) => {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error('must be a URL such as imaps://user:password@host:993/INBOX');
  }
  if (url.protocol !== 'imap:' && url.protocol !== 'imaps:') {
    throw new Error(`must start with imaps: or imap: (got ${url.protocol})`);
  }
  if (!url.hostname || !url.username || !url.password) {
    throw new Error(
      'must name the host, the user and the password: imaps://user:password@host:993/INBOX',
    );
  }
  try {
    [url.username, url.password, url.pathname].forEach((part) => decodeURIComponent(part));
  } catch {
    throw new Error('must percent-encode the user, password and folder (% as %25)');
  }
  return raw;
});

/** A folder name as IMAP servers take it: printable, not too long. */
const folderName = makeValidator<string>((raw) => {
  // eslint-disable-next-line no-control-regex
  if (raw.length > 100 || /[\x00-\x1f\x7f*%]/.test(raw)) {
    throw new Error(`must be a folder name of at most 100 printable characters (got "${raw}")`);
  }
  return raw;
});

/** The worker's settings: the shared stores plus where and how mail is sent. */
export const workerEnvSpec = {
  ...sharedEnvSpec,
  ...campaignEnvSpec,
  SMTP_URL: urlOf('smtp:', 'smtps:')(),
  MAIL_TO: mailbox(),
  WORKER_CONCURRENCY: integer(1, 500)({ default: 5 }),
  /** The public website, for the links in mail; unset means CORS_ORIGIN, the site's own origin. */
  SITE_URL: siteUrl({ default: undefined }),
  CORS_ORIGIN: siteUrl({ default: 'http://localhost:5173' }),
  OUTBOX_RELAY_INTERVAL_SECONDS: integer(1, 86_400)({ default: 30 }),
  OUTBOX_PENDING_AGE_SECONDS: integer(0, 86_400)({ default: 60 }),
  CAMPAIGN_CONCURRENCY: integer(1, 200)({ default: 10 }),
  CAMPAIGN_BATCH_SIZE: integer(1, 1000)({ default: 200 }),
  CAMPAIGN_BATCHES_IN_FLIGHT: integer(1, 100)({ default: 4 }),
  CAMPAIGN_SMTP_CONNECTIONS: integer(1, 200)({ default: undefined }),
  CAMPAIGN_RETRY_DELAY_SECONDS: integer(1, 3600)({ default: 5 }),
  CAMPAIGN_RETRY_ATTEMPTS: integer(1, 50)({ default: 8 }),
  /** During an outage of the SMTP server: how often it is asked whether it is back. */
  SMTP_PROBE_INTERVAL_SECONDS: integer(1, 600)({ default: 10 }),
  CAMPAIGN_LOCK_SECONDS: integer(1, 3600)({ default: 30 }),
  CAMPAIGN_RECOVERY_INTERVAL_SECONDS: integer(1, 86_400)({ default: 30 }),
  CAMPAIGN_STALLED_AFTER_SECONDS: integer(0, 86_400)({ default: 60 }),
  /** A mailbox whose server delivers `local+anything@domain` to it: the per-recipient bounce address. */
  CAMPAIGN_RETURN_PATH: mailbox({ default: undefined }),
  STATS_RECONCILE_INTERVAL_SECONDS: integer(10, 7 * 86_400)({ default: 900 }),
  /** The mailbox returned mail reaches (e.g. CAMPAIGN_RETURN_PATH's); unset, none is read. */
  BOUNCE_MAILBOX_URL: imapUrl({ default: undefined }),
  BOUNCE_MAILBOX_POLL_SECONDS: integer(10, 86_400)({ default: 300 }),
  BOUNCE_MAILBOX_PROCESSED_FOLDER: folderName({ default: 'Processed' }),
};

export interface WorkerConfig extends SharedConfig {
  smtpUrl: string;
  mailFrom: string;
  mailTo: string;
  concurrency: number;
  /** Origin of the website, without a trailing slash. */
  siteUrl: string;
  outbox: { relayIntervalMs: number; pendingAgeMs: number };
  campaigns: CampaignSendSettings & { smtpConnections: number };
  /** How often the dashboard's kept figures are recounted from the store. */
  statsReconcileIntervalMs: number;
  /** Where returned mail is read from, when a bounce mailbox is set. */
  bounceMailbox?: BounceMailboxConfig;
}

export interface BounceMailboxConfig extends BounceMailboxSettings {
  pollIntervalMs: number;
}

const LOOPBACK_HOSTS = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i;

/**
 * `imaps:` is TLS from the first byte. `imap:` must upgrade with STARTTLS,
 * so the password never crosses a network in clear, except to a server on
 * this host (a local Dovecot), which may offer no TLS at all.
 */
function bounceMailboxOf(
  raw: string,
  processedFolder: string,
  pollSeconds: number,
): BounceMailboxConfig {
  const url = new URL(raw);
  const secure = url.protocol === 'imaps:';
  const mailbox = decodeURIComponent(url.pathname.replace(/^\/+/, '')) || 'INBOX';
  return {
    host: url.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: Number(url.port) || (secure ? 993 : 143),
    secure,
    requireTls: !secure && !LOOPBACK_HOSTS.test(url.hostname),
    user: decodeURIComponent(url.username),
    password: decodeURIComponent(url.password),
    mailbox,
    processedFolder,
    pollIntervalMs: pollSeconds * 1000,
  };
}

/** `Bounces <bounces@agency.tn>` -> `bounces@agency.tn`: the envelope takes the address alone. */
function addressOf(mailboxText: string): string {
  return /<([^>]+)>/.exec(mailboxText)?.[1] ?? mailboxText.trim();
}

export function loadWorkerConfig(rawEnv: Env = process.env): WorkerConfig {
  // The same DATA_DIR as the API's gives the same MAIL_LINK_SECRET: the links signed here are checked there.
  const env = loadEnv(withKeptSecrets(rawEnv, ['MAIL_LINK_SECRET']), workerEnvSpec);
  return {
    ...toSharedConfig(env),
    smtpUrl: env.SMTP_URL,
    mailFrom: env.MAIL_FROM,
    mailTo: env.MAIL_TO,
    concurrency: env.WORKER_CONCURRENCY,
    siteUrl: (env.SITE_URL ?? env.CORS_ORIGIN).replace(/\/+$/, ''),
    outbox: {
      relayIntervalMs: env.OUTBOX_RELAY_INTERVAL_SECONDS * 1000,
      pendingAgeMs: env.OUTBOX_PENDING_AGE_SECONDS * 1000,
    },
    campaigns: {
      concurrency: env.CAMPAIGN_CONCURRENCY,
      batchSize: env.CAMPAIGN_BATCH_SIZE,
      batchesInFlight: Math.min(env.CAMPAIGN_BATCHES_IN_FLIGHT, env.CAMPAIGN_CONCURRENCY),
      ratePerSecond: env.CAMPAIGN_RATE_LIMIT_PER_SECOND,
      smtpConnections: env.CAMPAIGN_SMTP_CONNECTIONS ?? env.CAMPAIGN_CONCURRENCY,
      retryDelayMs: env.CAMPAIGN_RETRY_DELAY_SECONDS * 1000,
      retryAttempts: env.CAMPAIGN_RETRY_ATTEMPTS,
      mailServerProbeMs: env.SMTP_PROBE_INTERVAL_SECONDS * 1000,
      lockDurationMs: env.CAMPAIGN_LOCK_SECONDS * 1000,
      recoveryIntervalMs: env.CAMPAIGN_RECOVERY_INTERVAL_SECONDS * 1000,
      stalledAfterMs: env.CAMPAIGN_STALLED_AFTER_SECONDS * 1000,
      ...(env.CAMPAIGN_RETURN_PATH ? { returnPath: addressOf(env.CAMPAIGN_RETURN_PATH) } : {}),
      timeZone: env.AGENCY_TIME_ZONE,
    },
    statsReconcileIntervalMs: env.STATS_RECONCILE_INTERVAL_SECONDS * 1000,
    ...(env.BOUNCE_MAILBOX_URL
      ? {
          bounceMailbox: bounceMailboxOf(
            env.BOUNCE_MAILBOX_URL,
            env.BOUNCE_MAILBOX_PROCESSED_FOLDER,
            env.BOUNCE_MAILBOX_POLL_SECONDS,
          ),
        }
      : {}),
  };
}
