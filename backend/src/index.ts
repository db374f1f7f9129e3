/**
 * The API's entry: the app builder and its configuration, plus everything the
 * store entry offers. Only the API process and tests that drive the API use
 * it; the worker imports `@agency/backend/store`.
 */
export * from './store';
export { loadApiConfig, apiEnvSpec, type ApiConfig } from './config';
export { createApp, type AppDeps } from './app';
