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
  contactForMail,
  contactMailStatuses,
  findContactById,
  findContactForMail,
  markContactAcknowledgementFailed,
  markContactAcknowledgementSent,
  markContactMailFailed,
  markContactMailSent,
  settleContactMails,
  toContactDto,
  type ContactDocument,
  type ContactMailStatuses,
} from './modules/contact/store';
export {
  findConfirmationReceipt,
  findSubscriberByEmail,
  findSubscriberById,
  markConfirmationMailFailed,
  markConfirmationMailSent,
  settleConfirmationMail,
  signConfirmationToken,
  signUnsubscribeToken,
  type SubscriberDocument,
} from './modules/newsletter/store';
export {
  MailReceiptModel,
  OwedMailModel,
  type OwedMailEntry,
  type Receipt,
} from './modules/mail-outbox/store';
export { exitOnStartupFailure, runUntilSignalled } from './shutdown';
export { reconcileStats, type ReconcileReport } from './modules/stats/store';
export * from './modules/campaigns/store';
