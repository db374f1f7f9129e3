import {
  cleanEnv,
  makeExactValidator,
  makeValidator,
  bool,
  str,
  type ReporterOptions,
} from 'envalid';
import { IANAZone } from 'luxon';
import { PASSWORD_MIN_LENGTH } from '@agency/contracts';

/**
 * Configuration is read from the environment once, at start, and validated
 * against one envalid schema per process, so that a wrong value stops the
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

export const mailbox = makeValidator<string>((raw) => {
  if (!/^([^<>]*<)?[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+>?$/.test(raw)) {
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

/** Signs every admin token: long and random, or anyone could mint tokens. */
export const JWT_SECRET_MIN_LENGTH = 32;
/** Known to everyone who reads this file: accepted outside production only. */
export const DEV_JWT_SECRET = 'development-only-jwt-secret-never-use-in-production';

const jwtSecret = makeValidator<string>((raw) => {
  if (raw.length < JWT_SECRET_MIN_LENGTH || new Set(raw).size < 10) {
    throw new Error(
      `must be at least ${JWT_SECRET_MIN_LENGTH} random characters (generate one with: openssl rand -base64 48)`,
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

function reasonOf(error: Error): string {
  // envalid words a missing variable itself; ours already read as "must ...".
  return error.name === 'EnvMissingError' ? 'is required but not set' : error.message;
}

function throwConfigError<T>({ errors }: ReporterOptions<T>): void {
  const entries = Object.entries(errors as Record<string, Error | undefined>).filter(
    (entry): entry is [string, Error] => entry[1] !== undefined,
  );
  const first = entries[0];
  if (!first) return;
  throw new ConfigError(
    first[0],
    entries.map(([name, error]) => `${name} ${reasonOf(error)}`).join('; '),
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

/** Good enough on a laptop; refused in production, where links must not be forgeable. */
export const DEVELOPMENT_MAIL_LINK_SECRET = 'development-only-mail-link-secret';
const MAIL_LINK_SECRET_MIN_LENGTH = 32;

/** What both the API and the worker read: the stores, the queue namespace, the link key. */
export const sharedEnvSpec = {
  NODE_ENV: oneOf(NODE_ENVS)({ default: 'development' }),
  LOG_LEVEL: oneOf(LOG_LEVELS)({ default: 'info' }),
  MONGODB_URI: urlOf('mongodb:', 'mongodb+srv:')(),
  REDIS_URL: urlOf('redis:', 'rediss:')(),
  /** BullMQ key prefix; use a hash tag such as {agency} on Redis Cluster. */
  QUEUE_PREFIX: queuePrefix({ default: 'agency' }),
  /** Signs the newsletter's confirmation and unsubscribe links (the worker signs, the API checks). */
  MAIL_LINK_SECRET: str({ default: DEVELOPMENT_MAIL_LINK_SECRET }),
  /** Names the days the dashboard counts: the API counts each enquiry, the worker recounts. */
  AGENCY_TIME_ZONE: timeZone({ default: 'Africa/Tunis' }),
};

export const apiEnvSpec = {
  ...sharedEnvSpec,
  API_HOST: str({ default: '127.0.0.1' }),
  API_PORT: integer(0, 65535)({ default: 4000 }),
  CORS_ORIGIN: urlOf('http:', 'https:')({ default: 'http://localhost:5173' }),
  TRUST_PROXY: bool({ default: false }),
  JSON_BODY_LIMIT: byteSize({ default: '32kb' }),
  RATE_LIMIT_WINDOW_SECONDS: integer(1, 86_400)({ default: 600 }),
  CONTACT_RATE_LIMIT_MAX: integer(1, 1_000_000)({ default: 10 }),
  NEWSLETTER_RATE_LIMIT_MAX: integer(1, 1_000_000)({ default: 10 }),
  NEWSLETTER_ADDRESS_RATE_LIMIT_MAX: integer(1, 1_000_000)({ default: 3 }),
  NEWSLETTER_LINK_RATE_LIMIT_MAX: integer(1, 1_000_000)({ default: 60 }),
  /** Longest wait for any Redis reply on a request's path; past it the API carries on without. */
  REDIS_REQUEST_TIMEOUT_MS: integer(50, 10_000)({ default: 500 }),
  DEMO_MODE: bool({ default: false }),
  DEMO_ADMIN_USERNAME: str({ default: 'demo' }),
  DEMO_ADMIN_EMAIL: mailbox({ default: 'demo@agency.local' }),
  DEMO_ADMIN_PASSWORD: str({ default: 'demo-password-change-me' }),
  // Outside production a fixed development secret applies; production must set its own.
  JWT_SECRET: jwtSecret({ devDefault: DEV_JWT_SECRET }),
  JWT_EXPIRES_IN_SECONDS: integer(60, 7 * 86_400)({ default: 8 * 3600 }),
  LOGIN_MAX_FAILURES_PER_ACCOUNT: integer(1, 1000)({ default: 10 }),
  LOGIN_ACCOUNT_WINDOW_SECONDS: integer(1, 86_400)({ default: 60 }),
  LOGIN_MAX_FAILURES_PER_IP: integer(1, 1_000_000)({ default: 30 }),
  LOGIN_IP_WINDOW_SECONDS: integer(1, 86_400)({ default: 900 }),
  BOOTSTRAP_ADMIN_USERNAME: str({ default: undefined }),
  BOOTSTRAP_ADMIN_EMAIL: mailbox({ default: undefined }),
  BOOTSTRAP_ADMIN_PASSWORD: str({ default: undefined }),
};

/* ---------------------------------------------------------------------------
 * The shapes the processes use
 * ------------------------------------------------------------------------- */

export interface SharedConfig {
  nodeEnv: NodeEnv;
  logLevel: LogLevel;
  mongodbUri: string;
  redisUrl: string;
  queuePrefix: string;
  mailLinkSecret: string;
  /** The agency's time zone: "today", "this week" and the days the dashboard counts. */
  timeZone: string;
}

export interface ApiConfig extends SharedConfig {
  host: string;
  port: number;
  corsOrigin: string;
  trustProxy: boolean;
  jsonBodyLimit: string;
  rateLimit: {
    windowMs: number;
    contactMax: number;
    /** Subscription requests per IP, and per e-mail address, in one window. */
    newsletterMax: number;
    newsletterAddressMax: number;
    /** Confirmation and unsubscribe link uses per IP in one window. */
    newsletterLinksMax: number;
  };
  redisRequestTimeoutMs: number;
  demo: { enabled: boolean; username: string; email: string; password: string };
  auth: AuthConfig;
  /** The first admin, created at start when no admin exists (compose). */
  bootstrapAdmin?: { username: string; email: string; password: string };
}

export interface AuthConfig {
  jwtSecret: string;
  tokenTtlSeconds: number;
  loginThrottle: {
    accountMaxFailures: number;
    accountWindowSeconds: number;
    ipMaxFailures: number;
    ipWindowSeconds: number;
  };
}

type SharedEnv = ReturnType<typeof loadEnv<typeof sharedEnvSpec>>;

/** The shared part of a process's configuration, from its cleaned environment. */
export function toSharedConfig(env: SharedEnv): SharedConfig {
  if (env.NODE_ENV === 'production') assertStrongMailLinkSecret(env.MAIL_LINK_SECRET);
  return {
    nodeEnv: env.NODE_ENV,
    logLevel: env.LOG_LEVEL,
    mongodbUri: env.MONGODB_URI,
    redisUrl: env.REDIS_URL,
    queuePrefix: env.QUEUE_PREFIX,
    mailLinkSecret: env.MAIL_LINK_SECRET,
    timeZone: env.AGENCY_TIME_ZONE,
  };
}

/** Anyone who knows the key can confirm or unsubscribe any address: production needs its own. */
function assertStrongMailLinkSecret(secret: string): void {
  if (secret === DEVELOPMENT_MAIL_LINK_SECRET || secret.length < MAIL_LINK_SECRET_MIN_LENGTH) {
    throw new ConfigError(
      'MAIL_LINK_SECRET',
      `MAIL_LINK_SECRET must be a random value of at least ${MAIL_LINK_SECRET_MIN_LENGTH} characters in production (for example: openssl rand -hex 32)`,
    );
  }
}

export function loadApiConfig(rawEnv: Env = process.env): ApiConfig {
  // envalid applies devDefault only when NODE_ENV is set; ours defaults to
  // development, so an unset NODE_ENV must read as development here too.
  const env = loadEnv(
    { ...rawEnv, NODE_ENV: rawEnv.NODE_ENV?.trim() || apiEnvSpec.NODE_ENV.default },
    apiEnvSpec,
  );
  if (env.DEMO_MODE && env.NODE_ENV === 'production') {
    throw new ConfigError('DEMO_MODE', 'DEMO_MODE must be false when NODE_ENV is production');
  }
  if (env.DEMO_MODE && env.DEMO_ADMIN_PASSWORD.length < 8) {
    throw new ConfigError(
      'DEMO_ADMIN_PASSWORD',
      'DEMO_ADMIN_PASSWORD must be at least 8 characters long',
    );
  }
  if (env.NODE_ENV === 'production' && env.JWT_SECRET === DEV_JWT_SECRET) {
    throw new ConfigError(
      'JWT_SECRET',
      'JWT_SECRET must be set to a secret of your own when NODE_ENV is production',
    );
  }
  return {
    ...toSharedConfig(env),
    host: env.API_HOST,
    port: env.API_PORT,
    corsOrigin: env.CORS_ORIGIN,
    trustProxy: env.TRUST_PROXY,
    jsonBodyLimit: env.JSON_BODY_LIMIT,
    rateLimit: {
      windowMs: env.RATE_LIMIT_WINDOW_SECONDS * 1000,
      contactMax: env.CONTACT_RATE_LIMIT_MAX,
      newsletterMax: env.NEWSLETTER_RATE_LIMIT_MAX,
      newsletterAddressMax: env.NEWSLETTER_ADDRESS_RATE_LIMIT_MAX,
      newsletterLinksMax: env.NEWSLETTER_LINK_RATE_LIMIT_MAX,
    },
    redisRequestTimeoutMs: env.REDIS_REQUEST_TIMEOUT_MS,
    demo: {
      enabled: env.DEMO_MODE,
      username: env.DEMO_ADMIN_USERNAME,
      email: env.DEMO_ADMIN_EMAIL,
      password: env.DEMO_ADMIN_PASSWORD,
    },
    auth: {
      jwtSecret: env.JWT_SECRET,
      tokenTtlSeconds: env.JWT_EXPIRES_IN_SECONDS,
      loginThrottle: {
        accountMaxFailures: env.LOGIN_MAX_FAILURES_PER_ACCOUNT,
        accountWindowSeconds: env.LOGIN_ACCOUNT_WINDOW_SECONDS,
        ipMaxFailures: env.LOGIN_MAX_FAILURES_PER_IP,
        ipWindowSeconds: env.LOGIN_IP_WINDOW_SECONDS,
      },
    },
    bootstrapAdmin: bootstrapAdminOf(env),
  };
}

type ApiEnv = ReturnType<typeof loadEnv<typeof apiEnvSpec>>;

/** All three bootstrap variables, or none: a half-given admin is a mistake. */
function bootstrapAdminOf(env: ApiEnv): ApiConfig['bootstrapAdmin'] {
  const { BOOTSTRAP_ADMIN_USERNAME: username, BOOTSTRAP_ADMIN_EMAIL: email } = env;
  const password = env.BOOTSTRAP_ADMIN_PASSWORD;
  if (!username && !email && !password) return undefined;
  const missing = Object.entries({
    BOOTSTRAP_ADMIN_USERNAME: username,
    BOOTSTRAP_ADMIN_EMAIL: email,
    BOOTSTRAP_ADMIN_PASSWORD: password,
  }).find(([, value]) => !value)?.[0];
  if (missing || !username || !email || !password) {
    const name = missing ?? 'BOOTSTRAP_ADMIN_PASSWORD';
    throw new ConfigError(name, `${name} must be set with the other BOOTSTRAP_ADMIN_* variables`);
  }
  if (password.length < PASSWORD_MIN_LENGTH) {
    throw new ConfigError(
      'BOOTSTRAP_ADMIN_PASSWORD',
      `BOOTSTRAP_ADMIN_PASSWORD must be at least ${PASSWORD_MIN_LENGTH} characters long`,
    );
  }
  return { username, email, password };
}
