/**
 * The backend's public surface: what the worker (and only the worker) may
 * import. Everything else stays internal to the API.
 */
export {
  ConfigError,
  loadApiConfig,
  loadWorkerConfig,
  type ApiConfig,
  type SharedConfig,
  type WorkerConfig,
} from './config';
export { createLogger, type Logger } from './logger';
export { connectDatabase, disconnectDatabase, isDatabaseUp } from './db';
export { createApp, type AppDeps } from './app';
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
export { startOutboxRelay, type OutboxRelay } from './queues/outbox-relay';
export {
  findContactById,
  markContactMailFailed,
  markContactMailSent,
  toContactDto,
  type ContactDocument,
} from './modules/contact';
export { exitOnStartupFailure, runUntilSignalled } from './shutdown';
