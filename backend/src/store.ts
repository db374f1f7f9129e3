/**
 * The backend's narrow entry for the worker: configuration helpers, the
 * database connection, models' services and DTO mappers, Redis and the queue
 * definitions. Nothing here loads Koa, the router or argon2, so the worker
 * stays a small process that never carries HTTP code.
 */
export {
  ConfigError,
  byteSize,
  integer,
  loadEnv,
  mailbox,
  sharedEnvSpec,
  toSharedConfig,
  urlOf,
  type Env,
  type LogLevel,
  type NodeEnv,
  type SharedConfig,
} from './config';
export { createLogger, type Logger } from './logger';
export { connectDatabase, disconnectDatabase, isDatabaseUp } from './db';
export {
  createRedisConnection,
  isRedisUp,
  waitUntilConnected,
  type Redis,
} from './queues/redis-connection';
export {
  createMailQueues,
  enqueueContactNotifications,
  MAIL_JOB_OPTIONS,
  type MailQueues,
} from './queues/mail-queues';
export {
  findContactById,
  markContactMailFailed,
  markContactMailSent,
  toContactDto,
  type ContactDocument,
} from './modules/contact/store';
export { exitOnStartupFailure, runUntilSignalled } from './shutdown';
