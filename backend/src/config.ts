import { tmpdir } from 'node:os';
import { bool, makeValidator, str } from 'envalid';
import { PASSWORD_MIN_LENGTH, ROLES, isRole, type Role } from '@agency/contracts';
import {
  ConfigError,
  byteSize,
  integer,
  loadEnv,
  mailbox,
  notRetiredSecret,
  withKeptSecrets,
  campaignEnvSpec,
  sharedEnvSpec,
  toSharedConfig,
  urlOf,
  type Env,
  type SharedConfig,
} from '@agency/platform';
import { parseTrustProxy, type TrustProxy } from './middleware/client-address';

/**
 * The API's settings: the shared ones (@agency/platform's config.ts, which
 * says why every default lives in a schema) plus the web server's, the
 * rate limits, the admin tokens and the demo account.
 */

/** Signs every admin token: long and random, or anyone could mint tokens. */
export const JWT_SECRET_MIN_LENGTH = 32;

const jwtSecret = makeValidator<string>((raw) => {
  notRetiredSecret(raw);
  if (raw.length < JWT_SECRET_MIN_LENGTH || new Set(raw).size < 10) {
    throw new Error(
      `must be at least ${JWT_SECRET_MIN_LENGTH} random characters (generate one with: openssl rand -base64 48)`,
    );
  }
  return raw;
});

/** Roles as a comma-separated list; `none` for no role at all. */
const roleList = makeValidator<Role[]>((raw) => {
  if (raw.trim().toLowerCase() === 'none') return [];
  const roles = raw.split(',').map((role) => role.trim().toLowerCase());
  const unknown = roles.filter((role) => !isRole(role));
  if (unknown.length > 0 || roles.length === 0) {
    throw new Error(
      `must be roles among ${ROLES.join(', ')} separated by commas, or none (got "${raw}")`,
    );
  }
  return [...new Set(roles)] as Role[];
});

export const apiEnvSpec = {
  ...sharedEnvSpec,
  ...campaignEnvSpec,
  API_HOST: str({ default: '127.0.0.1' }),
  API_PORT: integer(0, 65535)({ default: 4000 }),
  CORS_ORIGIN: urlOf('http:', 'https:')({ default: 'http://localhost:5173' }),
  /** Whose X-Forwarded-For names the visitor: false, true, or the proxies' addresses/CIDRs. */
  TRUST_PROXY: makeValidator<TrustProxy>(parseTrustProxy)({ default: false }),
  JSON_BODY_LIMIT: byteSize({ default: '32kb' }),
  RATE_LIMIT_WINDOW_SECONDS: integer(1, 86_400)({ default: 600 }),
  CONTACT_RATE_LIMIT_MAX: integer(1, 1_000_000)({ default: 10 }),
  NEWSLETTER_RATE_LIMIT_MAX: integer(1, 1_000_000)({ default: 10 }),
  NEWSLETTER_ADDRESS_RATE_LIMIT_MAX: integer(1, 1_000_000)({ default: 3 }),
  NEWSLETTER_LINK_RATE_LIMIT_MAX: integer(1, 1_000_000)({ default: 60 }),
  ARCHIVE_RATE_LIMIT_MAX: integer(1, 1_000_000)({ default: 600 }),
  /**
   * Public image downloads per IP in one window. Mail clients and image
   * proxies fetch them (Gmail's from a few shared addresses): a campaign's
   * opens must never meet a 429 (docs/operations.md "Media storage").
   */
  MEDIA_FILE_RATE_LIMIT_MAX: integer(1, 10_000_000)({ default: 6000 }),
  /** Longest wait for any Redis reply on a request's path; past it the API carries on without. */
  REDIS_REQUEST_TIMEOUT_MS: integer(50, 10_000)({ default: 500 }),
  DEMO_MODE: bool({ default: false }),
  DEMO_ADMIN_USERNAME: str({ default: 'demo' }),
  DEMO_ADMIN_EMAIL: mailbox({ default: 'demo@agency.local' }),
  DEMO_ADMIN_PASSWORD: str({ default: 'demo-password-change-me' }),
  // Required in production; elsewhere, unset, one is made and kept in DATA_DIR (withKeptSecrets).
  JWT_SECRET: jwtSecret(),
  JWT_EXPIRES_IN_SECONDS: integer(60, 7 * 86_400)({ default: 8 * 3600 }),
  LOGIN_MAX_FAILURES_PER_ACCOUNT: integer(1, 1000)({ default: 10 }),
  LOGIN_ACCOUNT_WINDOW_SECONDS: integer(1, 86_400)({ default: 60 }),
  LOGIN_MAX_FAILURES_PER_IP: integer(1, 1_000_000)({ default: 30 }),
  LOGIN_IP_WINDOW_SECONDS: integer(1, 86_400)({ default: 900 }),
  /** Roles that must sign in with a second factor (TOTP); `none` for none. */
  TWO_FACTOR_REQUIRED_ROLES: roleList({ default: ['admin'] }),
  /** The name authenticator apps show next to the account. */
  TWO_FACTOR_ISSUER: str({ default: 'Digital Agency' }),
  PASSWORD_RESET_RATE_LIMIT_MAX: integer(1, 1_000_000)({ default: 10 }),
  PASSWORD_RESET_ADDRESS_RATE_LIMIT_MAX: integer(1, 1_000_000)({ default: 3 }),
  /** Campaign test sends per staff member per hour: each is a real mail from the agency. */
  CAMPAIGN_TEST_SENDS_PER_HOUR: integer(1, 10_000)({ default: 20 }),
  /** Largest body a mail-event webhook takes (SendGrid batches many events in one). */
  MAIL_EVENTS_BODY_LIMIT: byteSize({ default: '1mb' }),
  /** Webhook calls per IP per RATE_LIMIT_WINDOW_SECONDS: providers retry what is refused. */
  MAIL_EVENTS_RATE_LIMIT_MAX: integer(1, 1_000_000)({ default: 3000 }),
  /**
   * How far a webhook's signed timestamp may be from now, either way; a
   * Mailgun token is remembered that long. Past an hour a captured delivery
   * stays replayable for too long.
   */
  MAIL_EVENTS_TOLERANCE_SECONDS: integer(30, 3600)({ default: 300 }),
  /** Amazon SES through SNS: the topics taken, comma-separated; unset turns the endpoint off. */
  MAIL_EVENTS_SES_TOPIC_ARNS: str({ default: undefined }),
  /** Where SNS signing certificates may come from; `*` stands for one DNS label. */
  MAIL_EVENTS_SES_CERT_HOSTS: str({ default: 'sns.*.amazonaws.com,sns.*.amazonaws.com.cn' }),
  MAIL_EVENTS_POSTMARK_USERNAME: str({ default: undefined }),
  MAIL_EVENTS_POSTMARK_PASSWORD: str({ default: undefined }),
  /** SendGrid's event webhook verification key (base64, as SendGrid shows it, or PEM). */
  MAIL_EVENTS_SENDGRID_PUBLIC_KEY: str({ default: undefined }),
  MAIL_EVENTS_MAILGUN_SIGNING_KEY: str({ default: undefined }),
  /** The shared secret of the generic format (32+ characters). */
  MAIL_EVENTS_GENERIC_SECRET: str({ default: undefined }),
  /** The public site's address; media URLs in mail start with it (empty: CORS_ORIGIN). */
  SITE_URL: urlOf('http:', 'https:')({ default: undefined }),
  /** Where uploaded images are kept while MEDIA_S3_BUCKET is unset (relative: to the working folder). */
  MEDIA_DIR: str({ default: '.data/media' }),
  /** Image uploads per staff member per hour: each costs seconds of image work. */
  MEDIA_UPLOADS_PER_HOUR: integer(1, 100_000)({ default: 120 }),
  /** Uploads one API process decodes at once, one core each; more wait their turn. */
  MEDIA_PROCESSING_CONCURRENCY: integer(1, 16)({ default: 1 }),
  /** Where uploads wait while they are read and processed (empty: the system's temporary folder). */
  MEDIA_UPLOAD_DIR: str({ default: undefined }),
  /** An S3-compatible bucket for the images instead of MEDIA_DIR; unset keeps them on disk. */
  MEDIA_S3_BUCKET: str({ default: undefined }),
  MEDIA_S3_REGION: str({ default: 'us-east-1' }),
  /** Another S3-compatible service than AWS (MinIO, Versity, R2...). */
  MEDIA_S3_ENDPOINT: urlOf('http:', 'https:')({ default: undefined }),
  MEDIA_S3_ACCESS_KEY_ID: str({ default: undefined }),
  MEDIA_S3_SECRET_ACCESS_KEY: str({ default: undefined }),
  /** Bucket in the path (`endpoint/bucket/key`), as most self-hosted services want. */
  MEDIA_S3_FORCE_PATH_STYLE: bool({ default: false }),
  /** Where the bucket's objects are public (a CDN); unset, images are served through the API. */
  MEDIA_S3_PUBLIC_URL: urlOf('http:', 'https:')({ default: undefined }),
  BOOTSTRAP_ADMIN_USERNAME: str({ default: undefined }),
  BOOTSTRAP_ADMIN_EMAIL: mailbox({ default: undefined }),
  BOOTSTRAP_ADMIN_PASSWORD: str({ default: undefined }),
};

export interface ApiConfig extends SharedConfig {
  host: string;
  port: number;
  corsOrigin: string;
  trustProxy: TrustProxy;
  jsonBodyLimit: string;
  rateLimit: {
    windowMs: number;
    contactMax: number;
    /** Subscription requests per IP, and per e-mail address, in one window. */
    newsletterMax: number;
    newsletterAddressMax: number;
    /** Confirmation and unsubscribe link uses per IP in one window. */
    newsletterLinksMax: number;
    /** Public archive reads (pages, feed, JSON) per IP in one window. */
    archiveMax: number;
    /** Public image downloads per IP in one window; revalidations (304) have ten times as many. */
    mediaFileMax: number;
    /** "Forgot password" requests per IP, and per e-mail address, in one window. */
    passwordResetMax: number;
    passwordResetAddressMax: number;
    /** Campaign test sends per user in one hour. */
    testSendsPerHour: number;
  };
  redisRequestTimeoutMs: number;
  demo: { enabled: boolean; username: string; email: string; password: string };
  auth: AuthConfig;
  /** Bounce and complaint webhooks: each provider is on once its secret (or topic) is set. */
  mailEvents: MailEventsConfig;
  /** What the campaign editor and its preview need of the mail settings. */
  campaigns: {
    maxRatePerMinute: number | null;
    /** MAIL_FROM: the agency's sender until an admin saves the agency's settings. */
    mailFrom: string;
  };
  /** The media library: where images are kept, and the address their URLs start with. */
  media: MediaConfig;
  /** The first admin, created at start when no admin exists (compose). */
  bootstrapAdmin?: { username: string; email: string; password: string };
}

export type MediaStorageConfig =
  | { kind: 'filesystem'; dir: string }
  | {
      kind: 's3';
      bucket: string;
      region: string;
      endpoint?: string;
      /** Both, or neither (the SDK's own chain: instance role, AWS_* variables). */
      credentials?: { accessKeyId: string; secretAccessKey: string };
      forcePathStyle: boolean;
      publicUrl?: string;
    };

export interface MediaConfig {
  storage: MediaStorageConfig;
  /** SITE_URL (else CORS_ORIGIN) without a trailing slash: image URLs are absolute for mail. */
  siteUrl: string;
  uploadsPerHour: number;
  processingConcurrency: number;
  /** Where an upload is kept from its first byte until the image process has read it. */
  uploadDir: string;
}

export interface MailEventsConfig {
  bodyLimit: string;
  rateLimitMax: number;
  /** Seconds a signed timestamp may be from now; a Mailgun token is taken once within them. */
  toleranceSeconds: number;
  ses?: { topicArns: string[]; certificateHosts: string[]; certificateAuthorities?: string[] };
  postmark?: { username: string; password: string };
  sendgridPublicKey?: string;
  mailgunSigningKey?: string;
  genericSecret?: string;
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
  twoFactor: {
    requiredRoles: readonly Role[];
    issuer: string;
  };
}

export function loadApiConfig(rawEnv: Env = process.env): ApiConfig {
  const env = loadEnv(withKeptSecrets(rawEnv, ['JWT_SECRET', 'MAIL_LINK_SECRET']), apiEnvSpec);
  if (env.DEMO_MODE && env.NODE_ENV === 'production') {
    throw new ConfigError('DEMO_MODE', 'DEMO_MODE must be false when NODE_ENV is production');
  }
  if (env.DEMO_MODE && env.DEMO_ADMIN_PASSWORD.length < 8) {
    throw new ConfigError(
      'DEMO_ADMIN_PASSWORD',
      'DEMO_ADMIN_PASSWORD must be at least 8 characters long',
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
      archiveMax: env.ARCHIVE_RATE_LIMIT_MAX,
      mediaFileMax: env.MEDIA_FILE_RATE_LIMIT_MAX,
      passwordResetMax: env.PASSWORD_RESET_RATE_LIMIT_MAX,
      passwordResetAddressMax: env.PASSWORD_RESET_ADDRESS_RATE_LIMIT_MAX,
      testSendsPerHour: env.CAMPAIGN_TEST_SENDS_PER_HOUR,
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
      twoFactor: {
        requiredRoles: env.TWO_FACTOR_REQUIRED_ROLES,
        issuer: env.TWO_FACTOR_ISSUER,
      },
    },
    mailEvents: mailEventsOf(env),
    campaigns: {
      mailFrom: env.MAIL_FROM,
      maxRatePerMinute:
        env.CAMPAIGN_RATE_LIMIT_PER_SECOND > 0 ? env.CAMPAIGN_RATE_LIMIT_PER_SECOND * 60 : null,
    },
    media: mediaOf(env),
    bootstrapAdmin: bootstrapAdminOf(env),
  };
}

const withoutTrailingSlash = (url: string) => url.replace(/\/+$/, '');

function mediaStorageOf(env: ApiEnv): MediaStorageConfig {
  const bucket = env.MEDIA_S3_BUCKET;
  const accessKeyId = env.MEDIA_S3_ACCESS_KEY_ID;
  const secretAccessKey = env.MEDIA_S3_SECRET_ACCESS_KEY;
  if (!bucket) {
    const stray = [
      'MEDIA_S3_ENDPOINT',
      'MEDIA_S3_ACCESS_KEY_ID',
      'MEDIA_S3_SECRET_ACCESS_KEY',
      'MEDIA_S3_PUBLIC_URL',
    ].find((name) => env[name as keyof ApiEnv] !== undefined);
    if (stray) throw new ConfigError(stray, `${stray} is set but MEDIA_S3_BUCKET is not`);
    return { kind: 'filesystem', dir: env.MEDIA_DIR };
  }
  if (Boolean(accessKeyId) !== Boolean(secretAccessKey)) {
    const missing = accessKeyId ? 'MEDIA_S3_SECRET_ACCESS_KEY' : 'MEDIA_S3_ACCESS_KEY_ID';
    throw new ConfigError(missing, `${missing} must be set with the other MEDIA_S3_*_KEY variable`);
  }
  return {
    kind: 's3',
    bucket,
    region: env.MEDIA_S3_REGION,
    ...(env.MEDIA_S3_ENDPOINT ? { endpoint: env.MEDIA_S3_ENDPOINT } : {}),
    ...(accessKeyId && secretAccessKey ? { credentials: { accessKeyId, secretAccessKey } } : {}),
    forcePathStyle: env.MEDIA_S3_FORCE_PATH_STYLE,
    ...(env.MEDIA_S3_PUBLIC_URL
      ? { publicUrl: withoutTrailingSlash(env.MEDIA_S3_PUBLIC_URL) }
      : {}),
  };
}

function mediaOf(env: ApiEnv): MediaConfig {
  return {
    storage: mediaStorageOf(env),
    siteUrl: withoutTrailingSlash(env.SITE_URL ?? env.CORS_ORIGIN),
    uploadsPerHour: env.MEDIA_UPLOADS_PER_HOUR,
    processingConcurrency: env.MEDIA_PROCESSING_CONCURRENCY,
    uploadDir: env.MEDIA_UPLOAD_DIR || tmpdir(),
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

const listOf = (raw: string) =>
  raw
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);

function mailEventsOf(env: ApiEnv): MailEventsConfig {
  const username = env.MAIL_EVENTS_POSTMARK_USERNAME;
  const password = env.MAIL_EVENTS_POSTMARK_PASSWORD;
  if (Boolean(username) !== Boolean(password)) {
    const missing = username ? 'MAIL_EVENTS_POSTMARK_PASSWORD' : 'MAIL_EVENTS_POSTMARK_USERNAME';
    throw new ConfigError(
      missing,
      `${missing} must be set with the other MAIL_EVENTS_POSTMARK_* variable`,
    );
  }
  const secret = env.MAIL_EVENTS_GENERIC_SECRET;
  if (secret && secret.length < 32) {
    throw new ConfigError(
      'MAIL_EVENTS_GENERIC_SECRET',
      'MAIL_EVENTS_GENERIC_SECRET must be at least 32 characters long',
    );
  }
  const topics = env.MAIL_EVENTS_SES_TOPIC_ARNS ? listOf(env.MAIL_EVENTS_SES_TOPIC_ARNS) : [];
  return {
    bodyLimit: env.MAIL_EVENTS_BODY_LIMIT,
    rateLimitMax: env.MAIL_EVENTS_RATE_LIMIT_MAX,
    toleranceSeconds: env.MAIL_EVENTS_TOLERANCE_SECONDS,
    ...(topics.length > 0
      ? { ses: { topicArns: topics, certificateHosts: listOf(env.MAIL_EVENTS_SES_CERT_HOSTS) } }
      : {}),
    ...(username && password ? { postmark: { username, password } } : {}),
    ...(env.MAIL_EVENTS_SENDGRID_PUBLIC_KEY
      ? { sendgridPublicKey: env.MAIL_EVENTS_SENDGRID_PUBLIC_KEY }
      : {}),
    ...(env.MAIL_EVENTS_MAILGUN_SIGNING_KEY
      ? { mailgunSigningKey: env.MAIL_EVENTS_MAILGUN_SIGNING_KEY }
      : {}),
    ...(secret ? { genericSecret: secret } : {}),
  };
}
