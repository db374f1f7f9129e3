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

/** The worker's settings: the shared stores plus where and how mail is sent. */
export const workerEnvSpec = {
  ...sharedEnvSpec,
  SMTP_URL: urlOf('smtp:', 'smtps:')(),
  MAIL_FROM: mailbox({ default: 'Agency <no-reply@agency.local>' }),
  MAIL_TO: mailbox(),
  WORKER_CONCURRENCY: integer(1, 500)({ default: 5 }),
};

export interface WorkerConfig extends SharedConfig {
  smtpUrl: string;
  mailFrom: string;
  mailTo: string;
  concurrency: number;
}

export function loadWorkerConfig(rawEnv: Env = process.env): WorkerConfig {
  const env = loadEnv(rawEnv, workerEnvSpec);
  return {
    ...toSharedConfig(env),
    smtpUrl: env.SMTP_URL,
    mailFrom: env.MAIL_FROM,
    mailTo: env.MAIL_TO,
    concurrency: env.WORKER_CONCURRENCY,
  };
}
