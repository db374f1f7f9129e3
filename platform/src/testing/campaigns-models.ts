/**
 * The campaigns module's models, for tests that write fixtures or read what
 * a send stored. Code outside the module goes through its face instead.
 */
export * from '../campaigns/campaign.model';
export * from '../campaigns/campaign-template.model';
export * from '../campaigns/campaign-batch.model';
export * from '../campaigns/results/campaign-results.model';
