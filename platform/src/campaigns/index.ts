/**
 * The campaigns module: campaigns, their templates, the ledger of each send
 * (a roster and an outcome document per batch) and the round keys in Redis.
 * The API and the worker reach these only through what this face exports:
 * commands and queries, the worker engine's store, the keys, the lock and the
 * rendering. The models stay inside (tests: @agency/platform/testing/campaigns-models).
 */
// What the API asks for: drafts, sends and their controls, templates.
export {
  campaignExists,
  countCampaigns,
  findCampaign,
  findCampaignLanguageTarget,
  findCampaignNames,
  findCampaignRound,
  findCampaignsPage,
  type CampaignLanguageTarget,
} from './campaign-queries';
export * from './campaign-progress-queries';
// What a person's page lists: the campaign mails sent to one address.
export * from './campaign-mails-to-address';
// What the public tracking pixel and redirect read of a campaign: its link table and key state.
export * from './campaign-tracking-queries';
export {
  createCampaignDraft,
  deleteCampaignAndLedger,
  duplicateCampaign,
  updateCampaignDraft,
  type CampaignCopy,
  type CampaignDraftFields,
  type CampaignTrackingSwitches,
} from './campaign-commands';
export * from './campaign-send-commands';
export {
  campaignTemplateExists,
  findCampaignTemplate,
  findCampaignTemplatesPage,
  findMailTemplate,
} from './template-queries';
export * from './template-commands';
// Which campaigns and templates show a media library image.
export { findMediaUses, mediaIdsIn } from './media-references';
export * from './campaign-ledger-pages';

// What the worker's engine is given: its store port and the implementation over this module's models.
export * from './campaign-store';
export { mongoCampaignStore } from './mongo-campaign-store';
export { migrateLegacyLedger, type LegacyLedgerReport } from './legacy-ledger-migration';

// The round's keys in Redis, the write lock, the identities of a round's mails.
export * from './campaign-keys';
export * from './campaign-lock';
export * from './campaign-unsubscribes';
export * from './campaign-round-identities';

// Rendering and test recipients, which the preview, the test send and the send share.
export * from './test-recipients';
export * from './rendering/campaign-html';
export * from './rendering/campaign.template';

// The signed tokens of tracking links and the open pixel, and the recipient keys they carry.
export * from './tracking/tracking-token';
export * from './tracking/recipient-key';
// Whether an open or a click was a person's or a machine's, and the rule that decided.
export * from './tracking/machine-rules';
export * from './tracking/event-verdicts';
// Campaign results: a campaign's link table, its links rewritten into tracking links, the scanners' trap link.
export * from './tracking/link-table';
export * from './tracking/trap-link.template';
// One recipient's stored events judged again together, as the event writer counts them.
export * from './tracking/stored-event-verdicts';
// Campaign results: the event writer (counters kept on write), the report, the individual
// results and their erasure, the list's rates, and the keys' destruction after the retention.
export {
  ACTIVITY_EVENT_LIMIT,
  createCampaignEventWriter,
  type CampaignEventWriter,
  type EventWriteReport,
} from './results/campaign-event-writer';
export { readCampaignReport } from './results/campaign-report-queries';
export {
  campaignPeopleRows,
  eraseCampaignActivityOf,
  readCampaignPeoplePage,
} from './results/campaign-people-queries';
export {
  destroyExpiredTrackingKeys,
  type TrackingRetentionReport,
} from './results/tracking-retention';
export * from './ledger-erasure';

// The public archive: published sent campaigns per language, placeholders neutral, no tracking.
export * from './archive/archive-queries';
