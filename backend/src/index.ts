/**
 * The API's entry: the app builder and its configuration. Only the API
 * process and tests that drive the API use it; what the API and the worker
 * share is `@agency/platform`.
 */
export { loadApiConfig, apiEnvSpec, type ApiConfig } from './config';
export { createApp, type AppDeps } from './app';
// The campaign send controls without HTTP: the worker's tests drive a send as the routes do.
export {
  campaignAudience,
  campaignControls,
  campaignScheduling,
  type CampaignControls,
} from './modules/campaigns';
export { createCampaignQueue, type CampaignQueue } from './queues/campaign-queue';
export { createPasswordResetQueue, type PasswordResetQueue } from './queues/password-reset-queue';
export { createUser } from './modules/users';
