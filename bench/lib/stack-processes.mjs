// @ts-check
/**
 * The API and worker processes as every bench runs them: throw-away stores
 * and queue prefix, a demo admin who signs in with the password alone, the
 * worker with the memory flags of `npm start`.
 */
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { workerProcessEnv } from '../../scripts/lib/app-env.mjs';
import { until } from './bench-steps.mjs';
import { startNode } from './processes.mjs';

const root = resolve(import.meta.dirname, '..', '..');
const require = createRequire(join(root, 'backend', 'package.json'));
const { API_ROUTES } = require('@agency/contracts');

/** The demo admin the API creates at start, whom the benches sign in as. */
export const BENCH_ADMIN = {
  username: 'bench',
  email: 'bench@agency.local',
  password: 'bench-password-1234',
};

/**
 * What the bench's API and workers run with; `settings` adds or overrides
 * what one bench needs (its limits, its campaign settings). The API and the
 * workers make their secrets in the bench's data folder and share them.
 * @param {{ dataDir: string, mongodbUri: string, redisUrl: string, queuePrefix: string,
 *   apiPort: number, smtpUrl: string }} where
 * @param {NodeJS.ProcessEnv} [settings]
 * @returns {NodeJS.ProcessEnv}
 */
export function benchAppEnv(
  { dataDir, mongodbUri, redisUrl, queuePrefix, apiPort, smtpUrl },
  settings,
) {
  return {
    ...process.env,
    NODE_ENV: 'development',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    MONGODB_URI: mongodbUri,
    REDIS_URL: redisUrl,
    QUEUE_PREFIX: queuePrefix,
    API_HOST: '127.0.0.1',
    API_PORT: String(apiPort),
    SMTP_URL: smtpUrl,
    MAIL_TO: 'inbox@agency.local',
    DEMO_MODE: 'true',
    DEMO_ADMIN_USERNAME: BENCH_ADMIN.username,
    DEMO_ADMIN_EMAIL: BENCH_ADMIN.email,
    DEMO_ADMIN_PASSWORD: BENCH_ADMIN.password,
    // The bench signs in with the password alone.
    TWO_FACTOR_REQUIRED_ROLES: 'none',
    ...settings,
  };
}

/** @param {NodeJS.ProcessEnv} env */
export const apiUrlOf = (env) => `http://127.0.0.1:${env.API_PORT}`;

/**
 * Starts the API; `healthy()` resolves once it answers its health check.
 * Register `stop` for cleaning up before waiting.
 * @param {NodeJS.ProcessEnv} env
 */
export function startApi(env) {
  const api = startNode('api', 'backend/dist/server.js', env);
  const health = `${apiUrlOf(env)}${API_ROUTES.health}`;
  return {
    ...api,
    healthy: () => until(async () => (await fetch(health).catch(() => null))?.ok === true, 60_000),
  };
}

/**
 * Starts a worker process with the heap cap, semi-spaces and allocator
 * settings `npm start` and compose give it.
 * @param {string} name @param {NodeJS.ProcessEnv} env
 */
export function startWorker(name, env) {
  return startNode(name, 'worker/dist/index.js', {
    ...env,
    ...workerProcessEnv(process.env),
  });
}

/**
 * Signs the bench's admin in; resolves to the authorization header.
 * @param {string} apiUrl
 * @returns {Promise<{ authorization: string }>}
 */
export async function signIn(apiUrl) {
  const response = await fetch(`${apiUrl}${API_ROUTES.login}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: BENCH_ADMIN.username, password: BENCH_ADMIN.password }),
  });
  const body = await response.json();
  if (!body.token) throw new Error(`sign-in answered ${response.status}: ${JSON.stringify(body)}`);
  return { authorization: `Bearer ${body.token}` };
}
