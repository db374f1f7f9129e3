/**
 * Configuration is read from the environment once, at start, and validated
 * here so that a wrong value stops the process with a message naming the
 * variable instead of failing later on a live request.
 */
export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    reason: string,
  ) {
    super(`Invalid configuration: ${variable} ${reason}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

const NODE_ENVS = ['development', 'test', 'production'] as const;
export type NodeEnv = (typeof NODE_ENVS)[number];
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

function read(env: Env, name: string): string | undefined {
  const value = env[name]?.trim();
  return value === '' ? undefined : value;
}

function required(env: Env, name: string): string {
  const value = read(env, name);
  if (value === undefined) throw new ConfigError(name, 'is required but not set');
  return value;
}

function oneOf<T extends string>(env: Env, name: string, allowed: readonly T[], fallback: T): T {
  const value = read(env, name) ?? fallback;
  if (!(allowed as readonly string[]).includes(value)) {
    throw new ConfigError(name, `must be one of ${allowed.join(', ')} (got "${value}")`);
  }
  return value as T;
}

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(name, `must be a whole number from ${min} to ${max} (got "${raw}")`);
  }
  return value;
}

function boolean(env: Env, name: string, fallback: boolean): boolean {
  const raw = read(env, name)?.toLowerCase();
  if (raw === undefined) return fallback;
  if (['true', '1', 'yes'].includes(raw)) return true;
  if (['false', '0', 'no'].includes(raw)) return false;
  throw new ConfigError(name, `must be true or false (got "${raw}")`);
}

function url(env: Env, name: string, protocols: readonly string[], fallback?: string): string {
  const value = fallback === undefined ? required(env, name) : (read(env, name) ?? fallback);
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    throw new ConfigError(name, `must be a URL (got "${value}")`);
  }
  if (!protocols.includes(parsed.protocol)) {
    throw new ConfigError(name, `must start with ${protocols.join(' or ')} (got "${value}")`);
  }
  return value;
}

/** Byte sizes as koa-body takes them: "32kb", "1mb" or a plain number of bytes. */
function byteSize(env: Env, name: string, fallback: string): string {
  const value = read(env, name) ?? fallback;
  if (!/^\d+(b|kb|mb)?$/i.test(value)) {
    throw new ConfigError(name, `must be a size such as 32kb or 1mb (got "${value}")`);
  }
  return value;
}

function emailAddress(env: Env, name: string, fallback?: string): string {
  const value = fallback === undefined ? required(env, name) : (read(env, name) ?? fallback);
  // Accepts "Name <a@b.c>" as well as a bare address.
  if (!/^([^<>]*<)?[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+>?$/.test(value)) {
    throw new ConfigError(name, `must be an e-mail address (got "${value}")`);
  }
  return value;
}

/** What both the API and the worker need: the stores and the queue namespace. */
export interface SharedConfig {
  nodeEnv: NodeEnv;
  logLevel: LogLevel;
  mongodbUri: string;
  redisUrl: string;
  /** BullMQ key prefix; use a hash tag such as {agency} on Redis Cluster. */
  queuePrefix: string;
}

export interface ApiConfig extends SharedConfig {
  host: string;
  port: number;
  corsOrigin: string;
  trustProxy: boolean;
  jsonBodyLimit: string;
  rateLimit: { windowMs: number; contactMax: number };
  outbox: { relayIntervalMs: number; pendingAgeMs: number };
  demo: { enabled: boolean; username: string; email: string; password: string };
}

export interface WorkerConfig extends SharedConfig {
  smtpUrl: string;
  mailFrom: string;
  mailTo: string;
  concurrency: number;
}

function loadSharedConfig(env: Env): SharedConfig {
  const queuePrefix = read(env, 'QUEUE_PREFIX') ?? 'agency';
  if (queuePrefix.includes(':')) throw new ConfigError('QUEUE_PREFIX', 'must not contain ":"');
  return {
    nodeEnv: oneOf(env, 'NODE_ENV', NODE_ENVS, 'development'),
    logLevel: oneOf(env, 'LOG_LEVEL', LOG_LEVELS, 'info'),
    mongodbUri: url(env, 'MONGODB_URI', ['mongodb:', 'mongodb+srv:']),
    redisUrl: url(env, 'REDIS_URL', ['redis:', 'rediss:']),
    queuePrefix,
  };
}

export function loadApiConfig(env: Env = process.env): ApiConfig {
  const shared = loadSharedConfig(env);
  const demoEnabled = boolean(env, 'DEMO_MODE', false);
  if (demoEnabled && shared.nodeEnv === 'production') {
    throw new ConfigError('DEMO_MODE', 'must be false when NODE_ENV is production');
  }
  const demoPassword = read(env, 'DEMO_ADMIN_PASSWORD') ?? 'demo-password-change-me';
  if (demoEnabled && demoPassword.length < 8) {
    throw new ConfigError('DEMO_ADMIN_PASSWORD', 'must be at least 8 characters long');
  }
  return {
    ...shared,
    host: read(env, 'API_HOST') ?? '127.0.0.1',
    port: integer(env, 'API_PORT', 4000, 0, 65535),
    corsOrigin: url(env, 'CORS_ORIGIN', ['http:', 'https:'], 'http://localhost:5173'),
    trustProxy: boolean(env, 'TRUST_PROXY', false),
    jsonBodyLimit: byteSize(env, 'JSON_BODY_LIMIT', '32kb'),
    rateLimit: {
      windowMs: integer(env, 'RATE_LIMIT_WINDOW_SECONDS', 600, 1, 86_400) * 1000,
      contactMax: integer(env, 'CONTACT_RATE_LIMIT_MAX', 10, 1, 1_000_000),
    },
    outbox: {
      relayIntervalMs: integer(env, 'OUTBOX_RELAY_INTERVAL_SECONDS', 30, 1, 86_400) * 1000,
      pendingAgeMs: integer(env, 'OUTBOX_PENDING_AGE_SECONDS', 60, 0, 86_400) * 1000,
    },
    demo: {
      enabled: demoEnabled,
      username: read(env, 'DEMO_ADMIN_USERNAME') ?? 'demo',
      email: emailAddress(env, 'DEMO_ADMIN_EMAIL', 'demo@agency.local'),
      password: demoPassword,
    },
  };
}

export function loadWorkerConfig(env: Env = process.env): WorkerConfig {
  return {
    ...loadSharedConfig(env),
    smtpUrl: url(env, 'SMTP_URL', ['smtp:', 'smtps:']),
    mailFrom: emailAddress(env, 'MAIL_FROM', 'Agency <no-reply@agency.local>'),
    mailTo: emailAddress(env, 'MAIL_TO'),
    concurrency: integer(env, 'WORKER_CONCURRENCY', 5, 1, 500),
  };
}
