/**
 * The campaigns module: campaigns, their templates, the ledger of each send
 * and the round keys in Redis. The API and the worker reach these through
 * the commands and queries below, never through the models.
 */
export * from './campaign.model';
export * from './campaign-batch.model';
export * from './campaign-ledger-pages';
export * from './campaign-keys';
export * from './campaign-lock';
export * from './campaign-template.model';
export * from './campaign-statuses';
export * from './template-queries';
export * from './template-commands';
export * from './campaign-queries';
export * from './campaign-commands';
export * from './campaign-send-commands';
export * from './campaign-progress-queries';
export * from './test-recipients';
export * from './rendering/campaign-html';
export * from './rendering/campaign.template';
export * from './campaign-round-identities';
export * from './campaign-store';
export * from './mongo-campaign-store';
export { migrateLegacyLedger, type LegacyLedgerReport } from './legacy-ledger-migration';
