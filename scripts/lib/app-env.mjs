// @ts-check
/**
 * The environment the local stack gives the API and the worker. The app's
 * own defaults live in its envalid schemas (backend/src/config.ts,
 * worker/src/config.ts); a run adds only what it decides itself.
 */

/**
 * The worker must be told where enquiry notifications go and has no default
 * for it; a local run sends them to this address, which MailDev catches.
 */
export const LOCAL_AGENCY_INBOX = 'hello@agency.local';

/**
 * Demo mode unless the caller says DEMO_MODE=false, and never in production.
 * @param {NodeJS.ProcessEnv} env
 */
export function wantsDemoMode(env) {
  return env.NODE_ENV !== 'production' && env.DEMO_MODE !== 'false';
}

/**
 * @param {{ baseEnv: NodeJS.ProcessEnv, apiPort: number, webUrl: string, mongodbUri: string,
 *   redisUrl: string, smtpUrl?: string, demoMode: boolean, runSettings?: NodeJS.ProcessEnv }} run
 * @returns {NodeJS.ProcessEnv}
 */
export function appEnvironment({
  baseEnv,
  apiPort,
  webUrl,
  mongodbUri,
  redisUrl,
  smtpUrl,
  demoMode,
  runSettings,
}) {
  return {
    ...baseEnv,
    MAIL_TO: baseEnv.MAIL_TO || LOCAL_AGENCY_INBOX,
    ...runSettings,
    API_PORT: String(apiPort),
    CORS_ORIGIN: webUrl,
    MONGODB_URI: mongodbUri,
    REDIS_URL: redisUrl,
    ...(smtpUrl ? { SMTP_URL: smtpUrl } : {}),
    DEMO_MODE: String(demoMode && baseEnv.NODE_ENV !== 'production'),
  };
}
