/**
 * What the API and the worker share, and nothing of HTTP: settings helpers,
 * the logger, the MongoDB and Redis connections, the models both write, the
 * mail outbox and the enquiries' and subscribers' mail state, the queue
 * producers and the outbox relay, the campaign models, keys and lock, and the
 * dashboard's kept figures with their reconciliation.
 */
export * from './config';
export * from './logger';
export * from './db';
export * from './timeout';
export * from './shutdown';
export * from './database-errors';
export * from './domain-error';
export * from './list-pages';
export * from './batched-writes';
export * from './embedded-store';
export * from './redis-connection';
export * from './queues';
export * from './contact';
export * from './newsletter';
export * from './mail-outbox';
export * from './campaigns';
export * from './mail';
export * from './users';
export * from './password-reset';
export * from './audience';
export * from './stats';
export * from './settings';
