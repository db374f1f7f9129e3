// The campaign module's surface without HTTP: what the worker reaches through src/store.ts.
export {
  SENDING_STATUSES,
  appendOutcomeFacts,
  appendPendingFacts,
  beginSending,
  findCampaignForSend,
  findCampaignSendState,
  findStuckQueuedCampaigns,
  finishRound,
  foldCounters,
  recordTotal,
  streamFailedRecipients,
  streamRecipients,
  type CampaignForSend,
  type CampaignSendState,
  type LedgerOutcome,
  type RoundCounts,
} from './campaign-delivery.service';
export {
  CAMPAIGN_STATE_TTL_SECONDS,
  campaignRateKey,
  campaignRoundKeys,
  expireRoundState,
  type CampaignRoundKeys,
} from './campaign-keys';
export { CampaignModel } from './campaign.model';
export { CampaignRecipientModel } from './campaign-recipient.model';
export { CampaignBusyError, withCampaignLock, withCampaignLockOrThrow } from './campaign-lock';
