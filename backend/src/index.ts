/**
 * The API's entry: the app builder and its configuration, plus everything the
 * store entry offers. Only the API process and tests that drive the API use
 * it; the worker imports `@agency/backend/store`.
 */
export * from './store';
export { loadApiConfig, apiEnvSpec, type ApiConfig } from './config';
export { createApp, type AppDeps } from './app';
// The campaign send controls without HTTP: the worker's tests drive a send as the routes do.
export { campaignControls, type CampaignControls } from './modules/campaigns';
export { createCampaignQueue, type CampaignQueue } from './queues/campaign-queue';
export { createPasswordResetQueue, type PasswordResetQueue } from './queues/password-reset-queue';
export { PasswordResetModel } from './modules/password-reset';
export { createUser } from './modules/users';
export { requestSubscription } from './modules/newsletter';
