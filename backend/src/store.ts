/**
 * The backend's narrow entry for the worker: configuration helpers, the
 * database connection, models' services and DTO mappers, Redis, the queue
 * definitions and the outbox relay. Nothing here loads Koa, the router or
 * argon2, so the worker stays a small process that never carries HTTP code.
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
  enqueueContactMails,
  enqueueNewsletterConfirmations,
  MAIL_JOB_OPTIONS,
  type MailQueues,
} from './queues/mail-queues';
export { relayOwedMail, type OutboxRelayOptions, type RelayedMail } from './queues/outbox-relay';
export {
  findContactById,
  markContactAcknowledgementFailed,
  markContactAcknowledgementSent,
  markContactMailFailed,
  markContactMailSent,
  toContactDto,
  type ContactDocument,
} from './modules/contact/store';
export {
  countConfirmedSubscribers,
  findSubscriberByEmail,
  findSubscriberById,
  markConfirmationMailFailed,
  markConfirmationMailSent,
  signConfirmationToken,
  signUnsubscribeToken,
  type SubscriberDocument,
} from './modules/newsletter/store';
export { exitOnStartupFailure, runUntilSignalled } from './shutdown';
export * from './modules/campaigns/store';
