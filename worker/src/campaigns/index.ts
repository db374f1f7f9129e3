// The campaign engine's entry: what the worker process starts it with.
export {
  startCampaignEngine,
  type CampaignEngineOptions,
  type CampaignSendSettings,
  type RunningCampaignEngine,
} from './campaign-engine';
export { createCampaignTransport, type CampaignTransport } from './campaign-transport';
export { createSmtpCampaignMessenger } from './smtp-campaign-messenger';
export type { CampaignMessenger } from './campaign-messenger';
