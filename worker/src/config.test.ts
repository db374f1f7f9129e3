import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadApiConfig } from '@agency/backend';
import { ConfigError } from '@agency/platform';
import { loadWorkerConfig, workerEnvSpec } from './config';

/** This file's data folder: where a run outside production keeps the secrets it makes. */
const dataDir = mkdtempSync(join(tmpdir(), 'agency-worker-config-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const base = {
  MONGODB_URI: 'mongodb://127.0.0.1:27017/agency',
  REDIS_URL: 'redis://127.0.0.1:6379',
  SMTP_URL: 'smtp://127.0.0.1:25',
  MAIL_TO: 'Agency <hi@agency.tn>',
  DATA_DIR: dataDir,
};

function variableAtFault(env: Record<string, string | undefined>): string {
  try {
    loadWorkerConfig(env);
  } catch (error: unknown) {
    if (error instanceof ConfigError) return error.variable;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('worker configuration', () => {
  it('reads the stores, the SMTP server and the agency inbox, with defaults for the rest', () => {
    expect(loadWorkerConfig(base)).toMatchObject({
      smtpUrl: 'smtp://127.0.0.1:25',
      mailTo: 'Agency <hi@agency.tn>',
      mailFrom: 'Agency <no-reply@agency.local>',
      concurrency: 5,
      queuePrefix: 'agency',
      siteUrl: 'http://localhost:5173',
      outbox: { relayIntervalMs: 30_000, pendingAgeMs: 60_000 },
    });
  });

  it('signs mail links with the key the API checks them with, from the same data folder', () => {
    const shared = mkdtempSync(join(tmpdir(), 'agency-worker-config-shared-'));
    try {
      // The worker starts first here: the API must read the key it made, not make another.
      const worker = loadWorkerConfig({ ...base, DATA_DIR: shared });
      expect(existsSync(join(shared, 'secrets', 'JWT_SECRET'))).toBe(false);
      const api = loadApiConfig({ ...base, DATA_DIR: shared });
      expect(api.mailLinkSecret).toBe(worker.mailLinkSecret);
      expect(loadWorkerConfig({ ...base, DATA_DIR: shared }).mailLinkSecret).toBe(
        worker.mailLinkSecret,
      );
      expect(worker.mailLinkSecret).not.toBe(loadWorkerConfig(base).mailLinkSecret);
    } finally {
      rmSync(shared, { recursive: true, force: true });
    }
  });

  it('finds Redis through the Sentinels when they are named, as the API does', () => {
    expect(
      loadWorkerConfig({
        ...base,
        REDIS_SENTINELS: 's1:26379,s2:26379',
        REDIS_SENTINEL_NAME: 'main',
      }).redisSentinel,
    ).toEqual({
      sentinels: [
        { host: 's1', port: 26379 },
        { host: 's2', port: 26379 },
      ],
      name: 'main',
    });
  });

  it('links mail to SITE_URL, or to the site origin CORS_ORIGIN names', () => {
    expect(loadWorkerConfig({ ...base, CORS_ORIGIN: 'https://agency.tn' }).siteUrl).toBe(
      'https://agency.tn',
    );
    expect(
      loadWorkerConfig({
        ...base,
        CORS_ORIGIN: 'https://agency.tn',
        SITE_URL: 'https://www.agency.tn/',
      }).siteUrl,
    ).toBe('https://www.agency.tn');
  });

  it('reads no bounce mailbox unless one is set', () => {
    expect(loadWorkerConfig(base).bounceMailbox).toBeUndefined();
  });

  it('reads the bounce mailbox from its URL, TLS required off this host', () => {
    expect(
      loadWorkerConfig({
        ...base,
        BOUNCE_MAILBOX_URL:
          'imaps://bounces%40agency.tn:p%40ss%3Aword@mail.agency.tn/Returned%20mail',
        BOUNCE_MAILBOX_POLL_SECONDS: '60',
      }).bounceMailbox,
    ).toEqual({
      host: 'mail.agency.tn',
      port: 993,
      secure: true,
      requireTls: false,
      user: 'bounces@agency.tn',
      password: 'p@ss:word',
      mailbox: 'Returned mail',
      processedFolder: 'Processed',
      pollIntervalMs: 60_000,
    });
    expect(
      loadWorkerConfig({ ...base, BOUNCE_MAILBOX_URL: 'imap://u:p@mail.agency.tn' }).bounceMailbox,
    ).toMatchObject({ port: 143, secure: false, requireTls: true, mailbox: 'INBOX' });
    expect(
      loadWorkerConfig({
        ...base,
        BOUNCE_MAILBOX_URL: 'imap://u:p@127.0.0.1:1143/INBOX',
        BOUNCE_MAILBOX_PROCESSED_FOLDER: 'INBOX.Done',
      }).bounceMailbox,
    ).toMatchObject({ port: 1143, requireTls: false, processedFolder: 'INBOX.Done' });
  });

  it('never repeats the bounce mailbox password in its reasons', () => {
    for (const url of ['imaps://user@mail.agency.tn', 'pop3://user:s3cret-pw@mail.agency.tn']) {
      try {
        loadWorkerConfig({ ...base, BOUNCE_MAILBOX_URL: url });
        throw new Error('expected a ConfigError');
      } catch (error: unknown) {
        expect(error).toBeInstanceOf(ConfigError);
        expect((error as ConfigError).variable).toBe('BOUNCE_MAILBOX_URL');
        expect((error as Error).message).not.toContain('s3cret-pw');
      }
    }
  });

  it.each([
    [{ SMTP_URL: undefined }, 'SMTP_URL'],
    [{ SMTP_URL: 'http://mail' }, 'SMTP_URL'],
    [{ MAIL_TO: undefined }, 'MAIL_TO'],
    [{ MAIL_TO: 'hello.@agency.tn' }, 'MAIL_TO'],
    [{ MAIL_FROM: 'Agency <no-reply@-agency.tn>' }, 'MAIL_FROM'],
    [{ CAMPAIGN_RETURN_PATH: 'bounces@[192.0.2.1]' }, 'CAMPAIGN_RETURN_PATH'],
    [{ WORKER_CONCURRENCY: '0' }, 'WORKER_CONCURRENCY'],
    [{ REDIS_URL: undefined }, 'REDIS_URL'],
    [{ SITE_URL: 'ftp://agency.tn' }, 'SITE_URL'],
    [{ OUTBOX_RELAY_INTERVAL_SECONDS: '0' }, 'OUTBOX_RELAY_INTERVAL_SECONDS'],
    // Production makes no secret, even with a data folder.
    [{ NODE_ENV: 'production' }, 'MAIL_LINK_SECRET'],
    [{ DATA_DIR: undefined }, 'MAIL_LINK_SECRET'],
    [{ MAIL_LINK_SECRET: 'development-only-mail-link-secret' }, 'MAIL_LINK_SECRET'],
    [{ REDIS_SENTINELS: '10.0.0.5:26379' }, 'REDIS_SENTINEL_NAME'],
    [{ REDIS_SENTINELS: '10.0.0.5', REDIS_SENTINEL_NAME: 'main' }, 'REDIS_SENTINELS'],
    [{ BOUNCE_MAILBOX_URL: 'imaps://mail.agency.tn' }, 'BOUNCE_MAILBOX_URL'],
    [{ BOUNCE_MAILBOX_URL: 'imaps://u:100%zz@mail.agency.tn' }, 'BOUNCE_MAILBOX_URL'],
    [{ BOUNCE_MAILBOX_POLL_SECONDS: '5' }, 'BOUNCE_MAILBOX_POLL_SECONDS'],
    [{ BOUNCE_MAILBOX_PROCESSED_FOLDER: 'Done*' }, 'BOUNCE_MAILBOX_PROCESSED_FOLDER'],
  ])('stops on a bad setting #%#', (change, variable) => {
    expect(variableAtFault({ ...base, ...change })).toBe(variable);
  });

  it('documents every worker variable in .env.example with its real default', () => {
    const example = readFileSync(join(__dirname, '../../.env.example'), 'utf8');
    for (const [name, spec] of Object.entries(workerEnvSpec)) {
      const line = new RegExp(`^${name}=(.*)$`, 'm').exec(example);
      expect({ name, documented: line !== null }).toEqual({ name, documented: true });
      const fallback: unknown = 'default' in spec ? spec.default : undefined;
      if (fallback !== undefined && line) {
        expect({ name, value: line[1]?.replace(/^"(.*)"$/, '$1') }).toEqual({
          name,
          value: String(fallback),
        });
      }
    }
  });
});
