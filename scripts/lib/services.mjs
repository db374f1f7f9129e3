// @ts-check
/**
 * The servers under the app: a MongoDB-wire server, Redis and MailDev (the
 * mail catcher: SMTP, a web inbox and a REST API), and for the tests an
 * S3-compatible server (Versity S3 Gateway). Each one the environment
 * already gives (MONGODB_URI, REDIS_URL, SMTP_URL, MEDIA_TEST_S3_ENDPOINT)
 * is used as is.
 */
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import getPort from 'get-port';
import { mongoServerEnv } from './mongo-server-env.mjs';
import { startService, stopAll, waitUntilReady } from './processes.mjs';
import { ensureSystemPrograms } from './system-deps.mjs';

export const LOOPBACK = '127.0.0.1';
const MAILDEV_BIN = createRequire(import.meta.url).resolve('maildev/bin/maildev');
/** Start-up banners and shutdown chatter of Redis and MailDev. */
const ROUTINE_LINE =
  /Redis is starting|Redis version=|Configuration loaded|Server initialized|Memory overcommit|signal-handler|User requested shutdown|ready to exit|MailDev (using directory|webapp running|SMTP Server running)|shutting down|caught signal terminated/;

/** @param {string[]} path */
function folder(...path) {
  mkdirSync(join(...path), { recursive: true });
  return join(...path);
}

/**
 * The command line of a MongoDB-wire server keeping its data under `dataDir`
 * and listening on `host:port`; FerretDB serves its debug page on loopback's
 * `debugPort`.
 * @param {'mongod' | 'ferretdb'} kind
 * @param {string} dataDir
 * @param {string} host
 * @param {number} port
 * @param {number} debugPort
 */
export function mongoServerArgs(kind, dataDir, host, port, debugPort) {
  if (kind === 'mongod') {
    return [
      '--dbpath',
      folder(dataDir, 'mongodb'),
      '--port',
      `${port}`,
      '--bind_ip',
      host,
      '--quiet',
    ];
  }
  return [
    '--handler=sqlite',
    `--sqlite-url=file:${folder(dataDir, 'ferretdb')}/`,
    `--state-dir=${folder(dataDir, 'ferretdb-state')}`,
    `--listen-addr=${host}:${port}`,
    `--debug-addr=${LOOPBACK}:${debugPort}`,
    '--telemetry=disable',
    '--log-level=error',
  ];
}

/**
 * @typedef {object} RunningServices
 * @property {string} mongodbUri
 * @property {string} redisUrl
 * @property {string} [smtpUrl]
 * @property {string} [mailCatcherUrl] MailDev's web inbox and REST API (when started here)
 * @property {S3Server} [s3] the S3-compatible server (when asked for)
 * @property {{ name: string, pid: number }[]} started the processes started here (not those the environment gave)
 * @property {MailCatcherControl} [mailCatcher] stops and starts again the MailDev started here
 * @property {() => Promise<void>} stop stops what was started here, last first
 */

/**
 * An S3-compatible server the media tests make their buckets on.
 * @typedef {object} S3Server
 * @property {string} endpoint
 * @property {string} accessKeyId
 * @property {string} secretAccessKey
 */

/**
 * The MailDev started here, stopped and started again on the same ports
 * and mail folder: how the e2e suite takes the SMTP server away mid-send.
 * @typedef {object} MailCatcherControl
 * @property {() => Promise<void>} stop its SMTP port refuses connections once this resolves
 * @property {() => Promise<void>} start resolves once it answers again, the mails caught before read back
 */

/** @param {number} [port] the one wanted, if free */
const freePort = (port) => getPort({ host: LOOPBACK, port });

/**
 * The processes started here, in the order they started: each one is
 * started, then waited for until its `resources` answer; `stop` stops them
 * last first.
 */
function serviceLauncher() {
  /** @type {import('./processes.mjs').Service[]} */
  const started = [];
  return {
    started,
    stop: () => stopAll(started.splice(0).reverse()),
    /** @param {Parameters<typeof startService>[0]} options @param {string[]} resources */
    start: async (options, ...resources) => {
      const service = startService({ ...options, isNoise: (line) => ROUTINE_LINE.test(line) });
      started.push(service);
      await waitUntilReady(resources, [service]);
    },
  };
}

/** @typedef {ReturnType<typeof serviceLauncher>} ServiceLauncher */

/**
 * A MongoDB-wire server on free loopback ports, its data under `dataDir`;
 * answers its URI.
 * @param {ServiceLauncher} launcher
 * @param {{ kind: 'mongod' | 'ferretdb', path: string }} server
 * @param {string} dataDir
 * @param {NodeJS.ProcessEnv} env
 */
async function startMongoServer(launcher, { kind, path }, dataDir, env) {
  const [port, debugPort] = [await freePort(), await freePort()];
  const listen = `${LOOPBACK}:${port}`;
  const args = mongoServerArgs(kind, dataDir, LOOPBACK, port, debugPort);
  await launcher.start(
    { name: kind, command: path, args, env: mongoServerEnv(kind, env), style: 'yellow' },
    `tcp:${listen}`,
  );
  return `mongodb://${listen}/agency`;
}

/**
 * Redis on a free loopback port, without persistence; answers its URL.
 * @param {ServiceLauncher} launcher
 * @param {string} redisServer the program
 * @param {string} dataDir
 */
async function startRedisServer(launcher, redisServer, dataDir) {
  const port = await freePort();
  // No persistence: queues start empty on each run.
  const args = ['--port', `${port}`, '--bind', LOOPBACK, '--save', '', '--appendonly', 'no'];
  args.push('--dir', folder(dataDir, 'redis'), '--loglevel', 'warning');
  await launcher.start(
    { name: 'redis', command: redisServer, args, style: 'red' },
    `tcp:${LOOPBACK}:${port}`,
  );
  return `redis://${LOOPBACK}:${port}`;
}

/**
 * Versity S3 Gateway on a free loopback port, each bucket a folder under
 * `dataDir`; answers its endpoint and keys (throw-away, like its data).
 * @param {ServiceLauncher} launcher
 * @param {string} program
 * @param {string} dataDir
 * @returns {Promise<S3Server>}
 */
async function startS3Server(launcher, program, dataDir) {
  const port = await freePort();
  const accessKeyId = 'agency-test';
  const secretAccessKey = 'agency-test-secret';
  const args = ['--access', accessKeyId, '--secret', secretAccessKey, '--quiet'];
  args.push('--port', `${LOOPBACK}:${port}`, 'posix', folder(dataDir, 'versitygw'));
  await launcher.start(
    { name: 'versitygw', command: program, args, style: 'green' },
    `tcp:${LOOPBACK}:${port}`,
  );
  return { endpoint: `http://${LOOPBACK}:${port}`, accessKeyId, secretAccessKey };
}

/** The S3 server the environment names, if it does. @param {NodeJS.ProcessEnv} env */
function givenS3Server(env) {
  const endpoint = env.MEDIA_TEST_S3_ENDPOINT;
  if (!endpoint) return undefined;
  return {
    endpoint,
    accessKeyId: env.MEDIA_TEST_S3_ACCESS_KEY_ID ?? '',
    secretAccessKey: env.MEDIA_TEST_S3_SECRET_ACCESS_KEY ?? '',
  };
}

/**
 * The variables a test process finds the S3 server by.
 * @param {S3Server} server
 */
export function s3TestEnv({ endpoint, accessKeyId, secretAccessKey }) {
  return {
    MEDIA_TEST_S3_ENDPOINT: endpoint,
    MEDIA_TEST_S3_ACCESS_KEY_ID: accessKeyId,
    MEDIA_TEST_S3_SECRET_ACCESS_KEY: secretAccessKey,
  };
}

/**
 * MailDev, on the preferred ports if free: its SMTP URL, its web inbox and
 * the control that stops and starts it again.
 * @param {ServiceLauncher} launcher
 * @param {string} dataDir
 * @param {{ smtp?: number, mailCatcher?: number }} [preferredPorts]
 * @returns {Promise<{ smtpUrl: string, mailCatcherUrl: string, control: MailCatcherControl }>}
 */
async function startMailCatcher({ started, start }, dataDir, preferredPorts) {
  const smtpPort = await freePort(preferredPorts?.smtp);
  const webPort = await freePort(preferredPorts?.mailCatcher);
  // Each mail is a file in the data folder, read back at start: the
  // inbox of `npm start` outlives a restart.
  const args = [MAILDEV_BIN, '--ip', LOOPBACK, '--smtp', `${smtpPort}`, '--web', `${webPort}`];
  args.push('--mail-directory', folder(dataDir, 'maildev'));
  const startMailDev = () =>
    start(
      { name: 'maildev', command: process.execPath, args, style: 'blue' },
      `tcp:${LOOPBACK}:${smtpPort}`,
      `http-get://${LOOPBACK}:${webPort}/healthz`,
    );
  await startMailDev();
  return {
    smtpUrl: `smtp://${LOOPBACK}:${smtpPort}`,
    mailCatcherUrl: `http://${LOOPBACK}:${webPort}`,
    control: {
      async stop() {
        const running = started.find(({ name }) => name === 'maildev');
        if (!running) return;
        started.splice(started.indexOf(running), 1);
        await running.stop();
      },
      async start() {
        if (!started.some(({ name }) => name === 'maildev')) await startMailDev();
      },
    },
  };
}

/**
 * Starts whatever of MongoDB, Redis, MailDev and (`s3`) the S3-compatible
 * server the environment lacks.
 * @param {{ dataDir: string, mailCatcher: boolean, s3?: boolean, env?: NodeJS.ProcessEnv,
 *   preferredPorts?: { smtp?: number, mailCatcher?: number } }} options
 * @returns {Promise<RunningServices>}
 */
export async function startServices({
  dataDir,
  mailCatcher,
  s3 = false,
  env = process.env,
  preferredPorts,
}) {
  const launcher = serviceLauncher();
  try {
    const givenS3 = s3 ? givenS3Server(env) : undefined;
    const programs = await ensureSystemPrograms({
      mongo: !env.MONGODB_URI,
      redis: !env.REDIS_URL,
      s3: s3 && !givenS3,
    });
    let { MONGODB_URI: mongodbUri, REDIS_URL: redisUrl, SMTP_URL: smtpUrl } = env;
    if (!mongodbUri && programs.mongoServer) {
      mongodbUri = await startMongoServer(launcher, programs.mongoServer, dataDir, env);
    }
    if (!redisUrl && programs.redisServer) {
      redisUrl = await startRedisServer(launcher, programs.redisServer, dataDir);
    }
    const caught =
      !smtpUrl && mailCatcher
        ? await startMailCatcher(launcher, dataDir, preferredPorts)
        : undefined;
    const s3Server =
      givenS3 ??
      (programs.s3Server ? await startS3Server(launcher, programs.s3Server, dataDir) : undefined);
    if (!mongodbUri || !redisUrl) throw new Error('unreachable: the stores were ensured above');
    const processes = launcher.started.flatMap(({ name, pid }) => (pid ? [{ name, pid }] : []));
    return {
      mongodbUri,
      redisUrl,
      smtpUrl: caught ? caught.smtpUrl : smtpUrl,
      mailCatcherUrl: caught?.mailCatcherUrl,
      ...(s3Server ? { s3: s3Server } : {}),
      ...(caught ? { mailCatcher: caught.control } : {}),
      started: processes,
      stop: launcher.stop,
    };
  } catch (error) {
    await launcher.stop();
    throw error;
  }
}
