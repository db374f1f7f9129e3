// @ts-check
/**
 * The whole product on this machine from its build: MongoDB/FerretDB, Redis
 * and MailDev (unless the environment names its own), then the API
 * (backend/dist), the worker (worker/dist) and the web (vite preview of
 * frontend/dist, proxying /api to the API). `npm start` and the e2e stack
 * both run it.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import getPort from 'get-port';
import { appEnvironment, workerProcessEnv } from './app-env.mjs';
import { SetupError } from './console.mjs';
import { startService, stopAll, waitUntilReady } from './processes.mjs';
import { LOOPBACK, startServices } from './services.mjs';

/** Files `npm run build` makes that the stack runs. */
const BUILD_OUTPUTS = [
  'backend/dist/server.js',
  'worker/dist/index.js',
  'frontend/dist/index.html',
];

/** @param {string} rootDir */
function assertAppIsBuilt(rootDir) {
  const missing = BUILD_OUTPUTS.filter((file) => !existsSync(join(rootDir, file)));
  if (missing.length > 0) {
    throw new SetupError(`The app is not built (missing ${missing.join(', ')}): run npm run build`);
  }
}

/**
 * The demo admin as the built API will seed it: asked of the backend's own
 * configuration, which holds the defaults.
 * @param {string} rootDir
 * @param {NodeJS.ProcessEnv} appEnv
 */
async function demoAdminOf(rootDir, appEnv) {
  /** @type {typeof import('../../backend/dist/config.js')} */
  const config = await import(pathToFileURL(join(rootDir, 'backend/dist/config.js')).href);
  const { username, email, password } = config.loadApiConfig(appEnv).demo;
  return { username, email, password };
}

/** The frontend workspace's vite, else the root's. @param {string} rootDir */
function viteOf(rootDir) {
  return ['frontend/node_modules/.bin/vite', 'node_modules/.bin/vite']
    .map((bin) => join(rootDir, bin))
    .find(existsSync);
}

/**
 * Starts the API, the worker and the web (vite preview of the build,
 * proxying /api to the API), without waiting for them.
 * @param {{ rootDir: string, env: NodeJS.ProcessEnv, appEnv: NodeJS.ProcessEnv, apiUrl: string,
 *   webPort: number }} app
 * @returns {import('./processes.mjs').Service[]}
 */
function startApp({ rootDir, env, appEnv, apiUrl, webPort }) {
  const vite = viteOf(rootDir);
  /**
   * @param {string} name @param {string} entry @param {import('./console.mjs').Style} style
   * @param {NodeJS.ProcessEnv} [extraEnv]
   */
  const node = (name, entry, style, extraEnv = {}) =>
    startService({
      name,
      command: process.execPath,
      args: [join(rootDir, entry)],
      cwd: rootDir,
      env: { ...appEnv, ...extraEnv },
      style,
    });
  return [
    node('api', 'backend/dist/server.js', 'cyan'),
    node('worker', 'worker/dist/index.js', 'magenta', workerProcessEnv(appEnv)),
    startService({
      name: 'web',
      command: vite ?? 'vite',
      args: ['preview', '--port', `${webPort}`, '--strictPort', '--host', LOOPBACK],
      cwd: join(rootDir, 'frontend'),
      // SITE_URL: the build's pages are served with the address taken here (frontend/site-origin.mjs).
      env: { ...env, API_PROXY_TARGET: apiUrl, SITE_URL: appEnv.SITE_URL },
      style: 'green',
    }),
  ];
}

/**
 * The API's and the web's addresses on loopback, on the preferred ports if free.
 * @param {{ web?: number, api?: number }} preferredPorts
 */
async function appAddresses(preferredPorts) {
  const apiUrl = `http://${LOOPBACK}:${await getPort({ host: LOOPBACK, port: preferredPorts.api })}`;
  const webPort = await getPort({ host: LOOPBACK, port: preferredPorts.web });
  return { apiUrl, webPort, webUrl: `http://${LOOPBACK}:${webPort}` };
}

/**
 * Starts the servers, then API, worker and web; resolves once the API's
 * health check and the web answer.
 * @param {{ rootDir: string, dataDir: string, env: NodeJS.ProcessEnv, demoMode: boolean,
 *   databaseName?: string, runSettings?: NodeJS.ProcessEnv,
 *   preferredPorts?: { web?: number, api?: number, smtp?: number, mailCatcher?: number } }} options
 *   `databaseName` replaces the one of the MongoDB URI; `runSettings` are other settings this run decides.
 */
export async function startStack(options) {
  const { rootDir, env, preferredPorts = {} } = options;
  assertAppIsBuilt(rootDir);
  const services = await startServices({ ...options, mailCatcher: true });
  /** @type {import('./processes.mjs').Service[]} */
  let app = [];
  const stop = async () => {
    await stopAll(app.splice(0).reverse());
    await services.stop();
  };
  try {
    const { withDatabaseName } = await import('@agency/contracts');
    const { databaseName } = options;
    const mongodbUri = databaseName
      ? withDatabaseName(services.mongodbUri, databaseName)
      : services.mongodbUri;
    const { apiUrl, webPort, webUrl } = await appAddresses(preferredPorts);
    const appEnv = appEnvironment({
      ...options,
      ...services,
      baseEnv: env,
      apiPort: Number(new URL(apiUrl).port),
      webUrl,
      mongodbUri,
    });
    const demoAdmin = appEnv.DEMO_MODE === 'true' ? await demoAdminOf(rootDir, appEnv) : undefined;
    app = startApp({ rootDir, env, appEnv, apiUrl, webPort });
    const healthUrl = `${apiUrl}/api/health`;
    await waitUntilReady([`http-get${healthUrl.slice(4)}`, `http-get${webUrl.slice(4)}`], app);
    /** Settles if API, worker or web dies while running. */
    const unexpectedExit = Promise.race(
      app.map((service) => service.exited.then((how) => `${service.name} ${how}`)),
    );
    const mailTo = appEnv.MAIL_TO ?? '';
    return {
      ...services,
      mongodbUri,
      webUrl,
      apiUrl,
      healthUrl,
      mailTo,
      demoAdmin,
      unexpectedExit,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
