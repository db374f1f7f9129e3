import { cleanEnv, makeExactValidator, makeValidator, str, type ReporterOptions } from 'envalid';
import { IANAZone } from 'luxon';
import { isDeliverableAddress } from '@agency/contracts';
import { isRetiredPublicSecret, keptSecret } from './installation-secrets';

/**
 * Configuration is read from the environment once, at start, and validated
 * against one envalid schema per process (the API's in backend/src/config.ts,
 * the worker's in worker/src/config.ts, both built on the shared part here), so that a wrong value stops the
 * process with a message naming the variable instead of failing later on a
 * live request. Every default lives in these schemas and nowhere else:
 * `.env.example` documents them (a test keeps the two in step), compose and
 * the scripts set only what differs in their setting.
 */
export class ConfigError extends Error {
  constructor(
    /** The first variable at fault; the message names every one. */
    readonly variable: string,
    reasons: string,
  ) {
    super(`Invalid configuration: ${reasons}`);
    this.name = 'ConfigError';
  }
}

export type Env = Record<string, string | undefined>;

/* ---------------------------------------------------------------------------
 * Validators envalid lacks: bounded integers, URLs of given schemes, mailboxes
 * ("Name <a@b.c>"), byte sizes as koa-body reads them.
 * ------------------------------------------------------------------------- */

export function integer(min: number, max: number) {
  return makeValidator<number>((raw) => {
    const value = Number(raw);
    if (!Number.isInteger(value) || value < min || value > max) {
      throw new Error(`must be a whole number from ${min} to ${max} (got "${raw}")`);
    }
    return value;
  });
}

export function urlOf(...protocols: string[]) {
  return makeValidator<string>((raw) => {
    let parsed: URL;
    try {
      parsed = new URL(raw);
    } catch {
      throw new Error(`must be a URL (got "${raw}")`);
    }
    if (!protocols.includes(parsed.protocol)) {
      throw new Error(`must start with ${protocols.join(' or ')} (got "${raw}")`);
    }
    return raw;
  });
}

/** `Name <address>` or a bare address; the address must pass the product's address rule. */
const MAILBOX = /^(?:[^<>]*<([^<>]+)>|([^<>]+))$/;

export const mailbox = makeValidator<string>((raw) => {
  const match = MAILBOX.exec(raw.trim());
  const address = (match?.[1] ?? match?.[2] ?? '').trim();
  if (!isDeliverableAddress(address)) {
    throw new Error(`must be an e-mail address (got "${raw}")`);
  }
  return raw;
});

export const byteSize = makeValidator<string>((raw) => {
  if (!/^\d+(b|kb|mb)?$/i.test(raw)) {
    throw new Error(`must be a size such as 32kb or 1mb (got "${raw}")`);
  }
  return raw;
});

export const timeZone = makeValidator<string>((raw) => {
  if (!IANAZone.isValidZone(raw)) {
    throw new Error(`must be an IANA time zone such as Africa/Tunis (got "${raw}")`);
  }
  return raw;
});

/** A Redis Sentinel to ask where the primary is. */
export interface SentinelAddress {
  host: string;
  port: number;
}

/** `host:port,host:port`: IPv6 hosts in brackets (`[::1]:26379`), like every Redis tool writes them. */
// The element type is written out rather than named, so that the worker's
// schema, which spreads this one, is typed without importing the name.
const sentinelList = makeValidator<{ host: string; port: number }[]>((raw) => {
  const addresses = raw.split(',').map((entry) => entry.trim());
  return addresses.map((entry) => {
    const match = /^(?:\[([0-9a-fA-F:.]+)\]|([A-Za-z0-9._-]+)):(\d{1,5})$/.exec(entry);
    const port = Number(match?.[3]);
    const host = match?.[1] ?? match?.[2];
    if (!host || port < 1 || port > 65_535) {
      throw new Error(
        `must be host:port pairs separated by commas, such as 10.0.0.5:26379,10.0.0.6:26379 (got "${entry}")`,
      );
    }
    return { host, port };
  });
});

/** The name a Sentinel monitors a primary under (`sentinel monitor <name> ...`): no spaces. */
const sentinelName = makeValidator<string>((raw) => {
  if (!/^[A-Za-z0-9._-]{1,64}$/.test(raw)) {
    throw new Error(
      `must be the primary's name in the Sentinels' configuration: letters, digits, ".", "_" or "-" (got "${raw}")`,
    );
  }
  return raw;
});

const queuePrefix = makeValidator<string>((raw) => {
  if (raw.includes(':')) throw new Error('must not contain ":"');
  return raw;
});

function oneOf<T extends string>(choices: readonly T[]) {
  return makeExactValidator<T>((raw) => {
    if (!(choices as readonly string[]).includes(raw)) {
      throw new Error(`must be one of ${choices.join(', ')} (got "${raw}")`);
    }
    return raw as T;
  });
}

/* ---------------------------------------------------------------------------
 * Loading
 * ------------------------------------------------------------------------- */

/** Compose and shells often set `VAR=`: an empty value means "not set". */
function withoutBlanks(env: Env): Env {
  const cleaned: Env = {};
  for (const [name, value] of Object.entries(env)) {
    const trimmed = value?.trim();
    if (trimmed) cleaned[name] = trimmed;
  }
  return cleaned;
}

/** The secrets a run outside production makes for itself when they are not set. */
export const KEPT_SECRET_NAMES = ['JWT_SECRET', 'MAIL_LINK_SECRET'] as const;
export type KeptSecretName = (typeof KEPT_SECRET_NAMES)[number];
const MISSING_KEPT_SECRET =
  'is required but not set: set it to a random value of your own (openssl rand -base64 48), or, outside production, set DATA_DIR to a folder where this installation makes and keeps its own (npm start uses .data)';

function reasonOf(name: string, error: Error): string {
  // envalid words a missing variable itself; ours already read as "must ...".
  if (error.name !== 'EnvMissingError') return error.message;
  if ((KEPT_SECRET_NAMES as readonly string[]).includes(name)) return MISSING_KEPT_SECRET;
  return 'is required but not set';
}

function throwConfigError<T>({ errors }: ReporterOptions<T>): void {
  const entries = Object.entries(errors as Record<string, Error | undefined>).filter(
    (entry): entry is [string, Error] => entry[1] !== undefined,
  );
  const first = entries[0];
  if (!first) return;
  throw new ConfigError(
    first[0],
    entries.map(([name, error]) => `${name} ${reasonOf(name, error)}`).join('; '),
  );
}

/** Validates `env` against an envalid schema; throws one ConfigError naming every bad variable. */
export function loadEnv<S>(env: Env, spec: S) {
  return cleanEnv(withoutBlanks(env), spec, { reporter: throwConfigError });
}

/* ---------------------------------------------------------------------------
 * Schemas
 * ------------------------------------------------------------------------- */

export const NODE_ENVS = ['development', 'test', 'production'] as const;
export type NodeEnv = (typeof NODE_ENVS)[number];
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

const MAIL_LINK_SECRET_MIN_LENGTH = 32;

/** Refuses a secret older releases published (in their source or .env.example), in every mode. */
export function notRetiredSecret(raw: string): string {
  if (isRetiredPublicSecret(raw)) {
    throw new Error(
      'must be set to a secret of your own: this value was published with older releases, so anyone can sign with it (leave it unset outside production to have one made)',
    );
  }
  return raw;
}

const mailLinkSecret = makeValidator<string>(notRetiredSecret);

/** What both the API and the worker read: the stores, the queue namespace, the link key. */
export const sharedEnvSpec = {
  NODE_ENV: oneOf(NODE_ENVS)({ default: 'development' }),
  LOG_LEVEL: oneOf(LOG_LEVELS)({ default: 'info' }),
  MONGODB_URI: urlOf('mongodb:', 'mongodb+srv:')(),
  REDIS_URL: urlOf('redis:', 'rediss:')(),
  /**
   * Redis with automatic failover: the Sentinels that say which server is the
   * primary. REDIS_URL then gives only the password, database and TLS.
   */
  REDIS_SENTINELS: sentinelList({ default: undefined }),
  REDIS_SENTINEL_NAME: sentinelName({ default: undefined }),
  /** When the Sentinels themselves require a password (`requirepass` in sentinel.conf). */
  REDIS_SENTINEL_PASSWORD: str({ default: undefined }),
  /** BullMQ key prefix; use a hash tag such as {agency} on Redis Cluster. */
  QUEUE_PREFIX: queuePrefix({ default: 'agency' }),
  /**
   * Signs the newsletter's confirmation and unsubscribe links (the worker signs, the API checks).
   * Unset outside production, one is made and kept in DATA_DIR (withKeptSecrets).
   */
  MAIL_LINK_SECRET: mailLinkSecret({ default: undefined }),
  /** Where a run outside production keeps the secrets it makes itself (npm start: .data). */
  DATA_DIR: str({ default: undefined }),
  /**
   * Names the days the dashboard counts (the API counts each enquiry, the
   * worker recounts), and the clock campaign schedules and windows are kept on.
   */
  AGENCY_TIME_ZONE: timeZone({ default: 'Africa/Tunis' }),
};

/**
 * What the API and the worker both read about campaigns, beyond the agency's
 * clock (shared: schedules and sending windows are kept on it): the sender
 * (whose name is `{{senderName}}`, in the preview as in the mail) and the
 * global cap a campaign's own rate must stay under.
 */
export const campaignEnvSpec = {
  MAIL_FROM: mailbox({ default: 'Agency <no-reply@agency.local>' }),
  CAMPAIGN_RATE_LIMIT_PER_SECOND: integer(0, 100_000)({ default: 0 }),
};

/* ---------------------------------------------------------------------------
 * The shapes the processes use
 * ------------------------------------------------------------------------- */

export interface SharedConfig {
  nodeEnv: NodeEnv;
  logLevel: LogLevel;
  mongodbUri: string;
  redisUrl: string;
  /** Set when Redis is found through Sentinels rather than at REDIS_URL's host. */
  redisSentinel?: RedisSentinelConfig;
  queuePrefix: string;
  mailLinkSecret: string;
  /** The agency's time zone: "today", "this week" and the days the dashboard counts. */
  timeZone: string;
}

export interface RedisSentinelConfig {
  sentinels: SentinelAddress[];
  /** The primary's name in the Sentinels' configuration. */
  name: string;
  password?: string;
}

export type SharedEnv = ReturnType<typeof loadEnv<typeof sharedEnvSpec>>;

/** The shared part of a process's configuration, from its cleaned environment. */
export function toSharedConfig(env: SharedEnv): SharedConfig {
  const mailLinkSecret = env.MAIL_LINK_SECRET;
  if (env.NODE_ENV === 'production') assertStrongMailLinkSecret(mailLinkSecret);
  if (!mailLinkSecret) {
    throw new ConfigError('MAIL_LINK_SECRET', `MAIL_LINK_SECRET ${MISSING_KEPT_SECRET}`);
  }
  return {
    nodeEnv: env.NODE_ENV,
    logLevel: env.LOG_LEVEL,
    mongodbUri: env.MONGODB_URI,
    redisUrl: env.REDIS_URL,
    redisSentinel: redisSentinelOf(env),
    queuePrefix: env.QUEUE_PREFIX,
    mailLinkSecret,
    timeZone: env.AGENCY_TIME_ZONE,
  };
}

/** The Sentinels and the primary's name come together: either alone is a mistake. */
function redisSentinelOf(env: SharedEnv): RedisSentinelConfig | undefined {
  const { REDIS_SENTINELS: sentinels, REDIS_SENTINEL_NAME: name } = env;
  if (sentinels && name) {
    const password = env.REDIS_SENTINEL_PASSWORD;
    return { sentinels, name, ...(password ? { password } : {}) };
  }
  if (sentinels) {
    throw new ConfigError(
      'REDIS_SENTINEL_NAME',
      'REDIS_SENTINEL_NAME must be set with REDIS_SENTINELS: the name the Sentinels know the primary by (sentinel monitor <name> ...)',
    );
  }
  if (name || env.REDIS_SENTINEL_PASSWORD) {
    const variable = name ? 'REDIS_SENTINEL_NAME' : 'REDIS_SENTINEL_PASSWORD';
    throw new ConfigError(
      variable,
      `${variable} needs REDIS_SENTINELS: the Sentinels' addresses, such as 10.0.0.5:26379,10.0.0.6:26379`,
    );
  }
  return undefined;
}

/** Anyone who knows the key can confirm or unsubscribe any address: production needs its own. */
function assertStrongMailLinkSecret(secret: string | undefined): void {
  if (!secret || secret.length < MAIL_LINK_SECRET_MIN_LENGTH) {
    throw new ConfigError(
      'MAIL_LINK_SECRET',
      `MAIL_LINK_SECRET must be a random value of at least ${MAIL_LINK_SECRET_MIN_LENGTH} characters in production (for example: openssl rand -hex 32)`,
    );
  }
}

/* ---------------------------------------------------------------------------
 * Secrets made per installation
 * ------------------------------------------------------------------------- */

/**
 * `rawEnv` with each of `names` that is not set filled from the data folder
 * (made there at the first start), in development and test only. Production
 * gets nothing made for it: its checks refuse to start without its own.
 * Without DATA_DIR nothing is made either, and validation names each missing
 * secret beside every other fault. The
 * API and the worker read the same DATA_DIR, so they agree on
 * MAIL_LINK_SECRET: the worker signs the links the API checks.
 */
export function withKeptSecrets(rawEnv: Env, names: readonly KeptSecretName[]): Env {
  const env = withoutBlanks(rawEnv);
  const nodeEnv = env.NODE_ENV ?? sharedEnvSpec.NODE_ENV.default;
  if (nodeEnv !== 'development' && nodeEnv !== 'test') return rawEnv;
  const missing = names.filter((name) => !env[name]);
  if (missing.length === 0) return rawEnv;
  const dataDir = env.DATA_DIR;
  if (!dataDir) return rawEnv;
  const made: Env = {};
  for (const name of missing) {
    try {
      made[name] = keptSecret(dataDir, name);
    } catch (error: unknown) {
      const reason =
        typeof error === 'object' && error !== null && 'message' in error
          ? String(error.message)
          : String(error);
      throw new ConfigError(name, `${name} could not be kept in DATA_DIR: ${reason}`);
    }
  }
  return { ...rawEnv, ...made };
}
