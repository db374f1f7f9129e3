// @ts-check
/**
 * The backing services of the stack: a MongoDB-wire server, Redis and
 * (optionally) the mail catcher. Each one given by an environment variable
 * (MONGODB_URI, REDIS_URL, SMTP_URL) is used as is and nothing is started.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { startMailCatcher } from './mail-catcher.mjs';
import { startManagedProcess, waitUntilReady } from './managed-process.mjs';
import { getFreePort, LOOPBACK } from './ports.mjs';
import { ensureMongoServer, ensureRedisServer } from './system-deps.mjs';
import { waitForTcpPort } from './wait.mjs';

/** @typedef {import('./managed-process.mjs').ManagedProcess} ManagedProcess */
/** @typedef {import('./system-deps.mjs').MongoServer} MongoServer */

const READY_TIMEOUT_MS = 60_000;
export const DEFAULT_DATABASE_NAME = 'agency';

/**
 * @typedef {object} StartServicesOptions
 * @property {string} dataDir where MongoDB/FerretDB and Redis keep their files
 * @property {'catcher' | 'none'} smtp start the mail catcher (unless SMTP_URL is set) or no SMTP at all
 * @property {string} [host] bind address (default 127.0.0.1)
 * @property {{ mongodb?: number, redis?: number, smtp?: number, mailCatcherHttp?: number }} [ports] default: free ports
 * @property {boolean} [echo] print the services' output lines (default true)
 * @property {NodeJS.ProcessEnv} [env] where MONGODB_URI / REDIS_URL / SMTP_URL are read (default process.env)
 */

/**
 * @typedef {object} RunningServices
 * @property {string} mongodbUri
 * @property {string} redisUrl
 * @property {string} [smtpUrl]
 * @property {string} [mailCatcherUrl] the catcher's web page (only when it was started)
 * @property {string[]} started names of what was started here (vs taken from the environment)
 * @property {() => Promise<void>} stop stops what was started here, in reverse order
 */

/**
 * The same MongoDB connection string with another database name.
 * @param {string} uri e.g. mongodb://127.0.0.1:27017/agency?directConnection=true
 * @param {string} databaseName
 */
export function withDatabaseName(uri, databaseName) {
  const match = /^(mongodb(?:\+srv)?:\/\/[^/?]+)(\/[^?]*)?(\?.*)?$/.exec(uri);
  if (!match) throw new Error(`Not a MongoDB connection string: ${uri}`);
  return `${match[1]}/${databaseName}${match[3] ?? ''}`;
}

/**
 * Hides the password of a connection string before it is printed.
 * @param {string} url
 */
export function redactCredentials(url) {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/[^:/?#@]*):[^@/?#]*@/i, '$1:***@');
}

/**
 * @param {MongoServer} server
 * @param {string} dataDir
 * @param {string} host
 * @param {number} port
 * @param {number} debugPort
 * @returns {string[]}
 */
export function mongoServerArgs(server, dataDir, host, port, debugPort) {
  if (server.kind === 'mongod') {
    const dbPath = join(dataDir, 'mongodb');
    mkdirSync(dbPath, { recursive: true });
    return ['--dbpath', dbPath, '--port', String(port), '--bind_ip', host, '--quiet'];
  }
  const sqliteDir = join(dataDir, 'ferretdb');
  const stateDir = join(dataDir, 'ferretdb-state');
  mkdirSync(sqliteDir, { recursive: true });
  mkdirSync(stateDir, { recursive: true });
  return [
    '--handler=sqlite',
    `--sqlite-url=file:${sqliteDir}/`,
    `--state-dir=${stateDir}`,
    `--listen-addr=${host}:${port}`,
    `--debug-addr=${host}:${debugPort}`,
    '--telemetry=disable',
    '--log-level=error',
  ];
}

/**
 * @param {string} dataDir
 * @param {string} host
 * @param {number} port
 * @returns {string[]}
 */
export function redisServerArgs(dataDir, host, port) {
  const dir = join(dataDir, 'redis');
  mkdirSync(dir, { recursive: true });
  return [
    '--port',
    String(port),
    '--bind',
    host,
    '--save',
    '',
    '--appendonly',
    'no',
    '--dir',
    dir,
    '--loglevel',
    'warning',
  ];
}

/**
 * @param {{ dataDir: string, host: string, port?: number, echo: boolean }} options
 * @returns {Promise<{ uri: string, process: ManagedProcess }>}
 */
async function startMongoServer({ dataDir, host, port, echo }) {
  const server = ensureMongoServer();
  const listenPort = port ?? (await getFreePort(host));
  const debugPort = await getFreePort(host);
  const managed = startManagedProcess({
    name: server.kind,
    command: server.path,
    args: mongoServerArgs(server, dataDir, host, listenPort, debugPort),
    echo,
  });
  await waitUntilReady(managed, (signal) =>
    waitForTcpPort(listenPort, { host, signal, timeoutMs: READY_TIMEOUT_MS }),
  );
  return { uri: `mongodb://${host}:${listenPort}/${DEFAULT_DATABASE_NAME}`, process: managed };
}

/** Redis's start-up banner and shutdown chatter (logged even at `warning` level). */
const REDIS_ROUTINE_LINE =
  /Redis is starting|Redis version=|Configuration loaded|Server initialized|Memory overcommit|signal-handler|User requested shutdown|ready to exit/;

/**
 * @param {{ dataDir: string, host: string, port?: number, echo: boolean }} options
 * @returns {Promise<{ url: string, process: ManagedProcess }>}
 */
async function startRedisServer({ dataDir, host, port, echo }) {
  const redisServer = ensureRedisServer();
  const listenPort = port ?? (await getFreePort(host));
  const managed = startManagedProcess({
    name: 'redis',
    command: redisServer,
    args: redisServerArgs(dataDir, host, listenPort),
    echo,
    isNoise: (line) => REDIS_ROUTINE_LINE.test(line),
  });
  await waitUntilReady(managed, (signal) =>
    waitForTcpPort(listenPort, { host, signal, timeoutMs: READY_TIMEOUT_MS }),
  );
  return { url: `redis://${host}:${listenPort}`, process: managed };
}

/**
 * Starts whatever of MongoDB, Redis and the mail catcher the environment
 * does not already provide.
 * @param {StartServicesOptions} options
 * @returns {Promise<RunningServices>}
 */
export async function startServices({
  dataDir,
  smtp,
  host = LOOPBACK,
  ports = {},
  echo = true,
  env = process.env,
}) {
  /** @type {{ name: string, stop: () => Promise<unknown> }[]} */
  const started = [];
  const stop = async () => {
    for (const service of started.splice(0).reverse()) await service.stop();
  };

  try {
    let mongodbUri = env.MONGODB_URI;
    if (!mongodbUri) {
      const mongo = await startMongoServer({ dataDir, host, port: ports.mongodb, echo });
      started.push({ name: mongo.process.name, stop: () => mongo.process.stop() });
      mongodbUri = mongo.uri;
    }

    let redisUrl = env.REDIS_URL;
    if (!redisUrl) {
      const redis = await startRedisServer({ dataDir, host, port: ports.redis, echo });
      started.push({ name: 'redis', stop: () => redis.process.stop() });
      redisUrl = redis.url;
    }

    let smtpUrl = env.SMTP_URL;
    /** @type {string | undefined} */
    let mailCatcherUrl;
    if (!smtpUrl && smtp === 'catcher') {
      const catcher = await startMailCatcher({
        host,
        smtpPort: ports.smtp,
        httpPort: ports.mailCatcherHttp,
      });
      started.push({ name: 'mail-catcher', stop: catcher.stop });
      smtpUrl = catcher.smtpUrl;
      mailCatcherUrl = catcher.httpUrl;
    }

    return {
      mongodbUri,
      redisUrl,
      smtpUrl,
      mailCatcherUrl,
      started: started.map((service) => service.name),
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
