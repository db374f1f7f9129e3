/**
 * What the API and the worker share, and nothing of HTTP: the settings
 * helpers, the logger, the MongoDB and Redis connections, the list pages, the
 * store workarounds, and each domain module's face (its commands, queries and
 * types; its models stay inside it, see docs/architecture.md, "Who writes
 * each collection").
 */
export * from './config';
export * from './logger';
export * from './db';
export * from './timeout';
export * from './derived-key';
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
export * from './privacy';
export * from './activity';
