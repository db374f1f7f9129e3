// The campaign module's surface without HTTP: what the worker's campaign engine reaches through src/store.ts.
export {
  CAMPAIGN_RATE_TTL_SECONDS,
  CAMPAIGN_STATE_TTL_SECONDS,
  campaignRateKey,
  campaignRoundKeys,
  expireRoundState,
  type CampaignRoundKeys,
} from './campaign-keys';
export { CampaignModel, type Campaign } from './campaign.model';
export {
  CampaignBatchModel,
  CampaignOutcomeModel,
  campaignBatchId,
  type CampaignBatch,
  type OutcomeEntry,
  type RosterEntry,
} from './campaign-batch.model';
export { CampaignBusyError, withCampaignLock, withCampaignLockOrThrow } from './campaign-lock';
