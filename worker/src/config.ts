import {
  integer,
  loadEnv,
  mailbox,
  sharedEnvSpec,
  toSharedConfig,
  urlOf,
  type Env,
  type SharedConfig,
} from '@agency/backend/store';

const siteUrl = urlOf('http:', 'https:');

/** The worker's settings: the shared stores plus where and how mail is sent. */
export const workerEnvSpec = {
  ...sharedEnvSpec,
  SMTP_URL: urlOf('smtp:', 'smtps:')(),
  MAIL_FROM: mailbox({ default: 'Agency <no-reply@agency.local>' }),
  MAIL_TO: mailbox(),
  WORKER_CONCURRENCY: integer(1, 500)({ default: 5 }),
  /** The public website, for the links in mail; unset means CORS_ORIGIN, the site's own origin. */
  SITE_URL: siteUrl({ default: undefined }),
  CORS_ORIGIN: siteUrl({ default: 'http://localhost:5173' }),
  OUTBOX_RELAY_INTERVAL_SECONDS: integer(1, 86_400)({ default: 30 }),
  OUTBOX_PENDING_AGE_SECONDS: integer(0, 86_400)({ default: 60 }),
};

export interface WorkerConfig extends SharedConfig {
  smtpUrl: string;
  mailFrom: string;
  mailTo: string;
  concurrency: number;
  /** Origin of the website, without a trailing slash. */
  siteUrl: string;
  outbox: { relayIntervalMs: number; pendingAgeMs: number };
}

export function loadWorkerConfig(rawEnv: Env = process.env): WorkerConfig {
  const env = loadEnv(rawEnv, workerEnvSpec);
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
  };
}
