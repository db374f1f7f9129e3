// @ts-check
/**
 * Runs the built app as three processes: the API (backend/dist/server.js), the
 * worker (worker/dist/index.js) and the web front end (vite preview of
 * frontend/dist, proxying /api to the API). Used by `npm start` and by the
 * Playwright global setup.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { firstToExit, startManagedProcess, waitUntilReady } from './managed-process.mjs';
import { getFreePort, LOOPBACK } from './ports.mjs';
import { findRepoRoot } from './repo-root.mjs';
import { SetupError } from './setup-error.mjs';
import { waitForHttpUrl } from './wait.mjs';

/** @typedef {import('./managed-process.mjs').ManagedProcess} ManagedProcess */

export const DEFAULT_MAIL_TO = 'hello@agency.local';
export const DEFAULT_MAIL_FROM = 'Agency <no-reply@agency.local>';
export const DEFAULT_QUEUE_PREFIX = 'agency';
export const DEFAULT_DEMO_ADMIN = {
  username: 'demo',
  email: 'demo@agency.local',
  password: 'demo-password-change-me',
};
const READY_TIMEOUT_MS = 60_000;

/** Files `npm run build` produces that the stack runs. */
export const BUILD_OUTPUTS = [
  'backend/dist/server.js',
  'worker/dist/index.js',
  'frontend/dist/index.html',
];
const VITE_CONFIG_NAMES = [
  'vite.config.ts',
  'vite.config.mts',
  'vite.config.js',
  'vite.config.mjs',
];

/**
 * @typedef {object} StackOptions
 * @property {string} mongodbUri
 * @property {string} redisUrl
 * @property {string} [smtpUrl]
 * @property {string} [rootDir] the monorepo root (default: found from the working directory)
 * @property {number} [apiPort] default: a free port
 * @property {number} [webPort] default: a free port
 * @property {string} [nodeEnv] default: NODE_ENV or 'development'
 * @property {boolean} [demoMode] default false; never true when nodeEnv is production
 * @property {string} [logLevel] default: LOG_LEVEL or 'info'
 * @property {string} [queuePrefix] default: QUEUE_PREFIX or 'agency'
 * @property {string} [mailTo] default: MAIL_TO or hello@agency.local
 * @property {string} [mailFrom] default: MAIL_FROM or Agency <no-reply@agency.local>
 * @property {NodeJS.ProcessEnv} [env] extra variables for the API and worker; they win
 * @property {boolean} [echo] print the processes' output lines (default true)
 * @property {number} [readyTimeoutMs] default 60 s
 */

/**
 * @typedef {object} RunningStack
 * @property {string} apiUrl
 * @property {string} webUrl
 * @property {string} healthUrl
 * @property {NodeJS.ProcessEnv} appEnv the variables given to the API and worker
 * @property {{ username: string, email: string, password: string } | undefined} demoAdmin set in demo mode
 * @property {Promise<{ name: string, reason: string }>} unexpectedExit settles if a process dies while running
 * @property {() => Promise<void>} stop stops web, worker, then API
 */

/**
 * The demo administrator the API seeds in demo mode (DEMO_ADMIN_* override the defaults).
 * @param {NodeJS.ProcessEnv} [env]
 */
export function demoAdminCredentials(env = process.env) {
  return {
    username: env.DEMO_ADMIN_USERNAME || DEFAULT_DEMO_ADMIN.username,
    email: env.DEMO_ADMIN_EMAIL || DEFAULT_DEMO_ADMIN.email,
    password: env.DEMO_ADMIN_PASSWORD || DEFAULT_DEMO_ADMIN.password,
  };
}

/**
 * The environment of the API and the worker (on top of process.env).
 * @param {StackOptions & { apiPort: number, webUrl: string }} options
 * @returns {NodeJS.ProcessEnv}
 */
export function buildAppEnv(options) {
  const nodeEnv = options.nodeEnv ?? process.env.NODE_ENV ?? 'development';
  const demoMode = Boolean(options.demoMode) && nodeEnv !== 'production';
  const demoAdmin = demoAdminCredentials({ ...process.env, ...options.env });
  /** @type {NodeJS.ProcessEnv} */
  const env = {
    ...process.env,
    NODE_ENV: nodeEnv,
    API_HOST: LOOPBACK,
    API_PORT: String(options.apiPort),
    MONGODB_URI: options.mongodbUri,
    REDIS_URL: options.redisUrl,
    QUEUE_PREFIX: options.queuePrefix ?? process.env.QUEUE_PREFIX ?? DEFAULT_QUEUE_PREFIX,
    CORS_ORIGIN: options.webUrl,
    MAIL_TO: options.mailTo ?? process.env.MAIL_TO ?? DEFAULT_MAIL_TO,
    MAIL_FROM: options.mailFrom ?? process.env.MAIL_FROM ?? DEFAULT_MAIL_FROM,
    LOG_LEVEL: options.logLevel ?? process.env.LOG_LEVEL ?? 'info',
    DEMO_MODE: String(demoMode),
    DEMO_ADMIN_USERNAME: demoAdmin.username,
    DEMO_ADMIN_EMAIL: demoAdmin.email,
    DEMO_ADMIN_PASSWORD: demoAdmin.password,
    ...options.env,
  };
  if (options.smtpUrl) env.SMTP_URL = options.smtpUrl;
  if (nodeEnv === 'production') env.DEMO_MODE = 'false';
  return env;
}

/**
 * Throws a SetupError naming `npm run build` when a build output is missing.
 * @param {string} rootDir
 */
export function assertAppIsBuilt(rootDir) {
  const missing = BUILD_OUTPUTS.filter((file) => !existsSync(join(rootDir, file)));
  if (missing.length > 0) {
    throw new SetupError(
      `The app is not built (missing ${missing.join(', ')}): run \`npm run build\``,
    );
  }
}

/**
 * How to run vite: its own executable when installed, else through npx.
 * @param {string} rootDir
 * @returns {{ command: string, prefixArgs: string[] }}
 */
function viteCommand(rootDir) {
  for (const bin of ['frontend/node_modules/.bin/vite', 'node_modules/.bin/vite']) {
    const path = join(rootDir, bin);
    if (existsSync(path)) return { command: path, prefixArgs: [] };
  }
  return { command: 'npx', prefixArgs: ['--no-install', 'vite'] };
}

/**
 * @param {string} rootDir
 * @param {number} webPort
 * @returns {string[]}
 */
function vitePreviewArgs(rootDir, webPort) {
  const config = VITE_CONFIG_NAMES.find((name) => existsSync(join(rootDir, 'frontend', name)));
  return [
    'preview',
    ...(config ? ['--config', config] : []),
    '--port',
    String(webPort),
    '--strictPort',
    '--host',
    LOOPBACK,
  ];
}

/**
 * Starts API, worker and web; resolves once the API health check answers 200
 * and the web server answers. If a process exits first, rejects with its last
 * output lines (and stops the others).
 * @param {StackOptions} options
 * @returns {Promise<RunningStack>}
 */
export async function startStack(options) {
  const rootDir = options.rootDir ?? findRepoRoot();
  assertAppIsBuilt(rootDir);
  const apiPort = options.apiPort ?? (await getFreePort());
  const webPort = options.webPort ?? (await getFreePort());
  const apiUrl = `http://${LOOPBACK}:${apiPort}`;
  const webUrl = `http://${LOOPBACK}:${webPort}`;
  const healthUrl = `${apiUrl}/api/health`;
  const appEnv = buildAppEnv({ ...options, apiPort, webUrl });
  const echo = options.echo ?? true;
  const timeoutMs = options.readyTimeoutMs ?? READY_TIMEOUT_MS;

  const api = startManagedProcess({
    name: 'api',
    command: process.execPath,
    args: [join(rootDir, 'backend/dist/server.js')],
    cwd: rootDir,
    env: appEnv,
    color: 'cyan',
    echo,
  });
  const worker = startManagedProcess({
    name: 'worker',
    command: process.execPath,
    args: [join(rootDir, 'worker/dist/index.js')],
    cwd: rootDir,
    env: appEnv,
    color: 'magenta',
    echo,
  });
  const vite = viteCommand(rootDir);
  const web = startManagedProcess({
    name: 'web',
    command: vite.command,
    args: [...vite.prefixArgs, ...vitePreviewArgs(rootDir, webPort)],
    cwd: join(rootDir, 'frontend'),
    env: { ...process.env, API_PROXY_TARGET: apiUrl },
    color: 'green',
    echo,
  });
  const processes = [api, worker, web];
  const stop = async () => {
    for (const managed of [web, worker, api]) await managed.stop();
  };

  try {
    await waitUntilReady(
      processes,
      (signal) =>
        waitForHttpUrl(healthUrl, { signal, timeoutMs, isReady: (status) => status === 200 }),
      'api',
    );
    await waitUntilReady(
      processes,
      (signal) => waitForHttpUrl(webUrl, { signal, timeoutMs }),
      'web',
    );
  } catch (error) {
    await stop();
    throw error;
  }

  let stopping = false;
  const unexpectedExit = firstToExit(processes).then(({ managed, info }) => {
    if (stopping) return /** @type {Promise<never>} */ (new Promise(() => {}));
    const reason = info.error ? info.error.message : `exit code ${info.code ?? info.signal}`;
    return { name: managed.name, reason };
  });
  return {
    apiUrl,
    webUrl,
    healthUrl,
    appEnv,
    demoAdmin: appEnv.DEMO_MODE === 'true' ? demoAdminCredentials(appEnv) : undefined,
    unexpectedExit,
    stop: async () => {
      stopping = true;
      await stop();
    },
  };
}
