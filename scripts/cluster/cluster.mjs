// @ts-check
/**
 * What runs on the cluster's hosts: the servers (a Redis primary and its
 * replica, three Sentinels, the MongoDB-wire server, HAProxy in front of the
 * API hosts, the SMTP sink), started once, and the product (two API hosts,
 * three worker hosts), started for each scenario on a database and queue
 * prefix of its own. Each process runs inside its host's namespace
 * (`ip netns exec`); the caller runs in the client host's.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { workerProcessEnv } from '../lib/app-env.mjs';
import { startService, stopAll, waitUntilReady } from '../lib/processes.mjs';
import { mongoServerEnv } from '../lib/mongo-server-env.mjs';
import { mongoServerArgs } from '../lib/services.mjs';
import { host, hostsOf } from './network.mjs';

export const REDIS_PORT = 6379;
export const SENTINEL_PORT = 26379;
export const SENTINEL_NAME = 'agency';
export const MONGO_PORT = 27017;
export const API_PORT = 4000;
export const SMTP_PORT = 2525;
export const SINK_HTTP_PORT = 8025;
export const AGENCY_INBOX = 'agency@cluster.test';
/** Campaign mails each worker process has in flight at once (CAMPAIGN_CONCURRENCY). */
export const CAMPAIGN_CONCURRENCY = 10;
/** The first admin, made by the first API host at its start. */
export const ADMIN = {
  username: 'cluster-admin',
  email: 'admin@cluster.test',
  password: 'cluster-admin-password-1',
};

/** How soon Sentinels call a silent primary down: short, so a scenario does not wait. */
const SENTINEL_DOWN_AFTER_MS = 2000;

/**
 * @typedef {import('../lib/processes.mjs').Service} Service
 * @typedef {import('./network.mjs').Host} Host
 * @typedef {{ redisServer: string, mongoServer: { kind: 'mongod' | 'ferretdb', path: string },
 *   haproxy: string }} Programs
 */

/** @param {string[]} path */
function folder(...path) {
  mkdirSync(join(...path), { recursive: true });
  return join(...path);
}

/**
 * @param {{ namespaceOf: (target: Host) => string }} network
 * @param {boolean} verbose print each process's output as it comes
 */
function launcher(network, verbose) {
  /**
   * @param {Host} target @param {string} name @param {string} command @param {string[]} args
   * @param {{ env?: NodeJS.ProcessEnv, cwd?: string }} [options]
   */
  return (target, name, command, args, options = {}) =>
    startService({
      name,
      command: 'ip',
      args: ['netns', 'exec', network.namespaceOf(target), command, ...args],
      echo: verbose,
      style: 'gray',
      ...options,
    });
}

/** @param {Host} target */
function redisArgs(target, /** @type {string} */ dir, /** @type {Host | undefined} */ primary) {
  const args = ['--port', `${REDIS_PORT}`, '--bind', target.address, '--protected-mode', 'no'];
  // No persistence: a restarted server comes back empty and takes the primary's data.
  args.push('--save', '', '--appendonly', 'no', '--dir', folder(dir, target.name));
  args.push('--maxmemory-policy', 'noeviction', '--loglevel', 'warning');
  if (primary) args.push('--replicaof', primary.address, `${REDIS_PORT}`);
  return args;
}

/** @typedef {ReturnType<typeof launcher>} Launch */

/**
 * A Sentinel's configuration: it rewrites the file as it learns, so each has
 * its own.
 * @param {Host} sentinel @param {string} home @param {Host} primary
 */
function sentinelConfig(sentinel, home, primary) {
  return [
    `port ${SENTINEL_PORT}`,
    `bind ${sentinel.address}`,
    'protected-mode no',
    `dir ${home}`,
    `sentinel monitor ${SENTINEL_NAME} ${primary.address} ${REDIS_PORT} 2`,
    `sentinel down-after-milliseconds ${SENTINEL_NAME} ${SENTINEL_DOWN_AFTER_MS}`,
    `sentinel failover-timeout ${SENTINEL_NAME} 10000`,
    `sentinel parallel-syncs ${SENTINEL_NAME} 1`,
    '',
  ].join('\n');
}

/**
 * @param {Launch} launch @param {Host} sentinel @param {string} dir
 * @param {Programs} programs @param {Host} primary
 */
async function startSentinel(launch, sentinel, dir, programs, primary) {
  const home = folder(dir, sentinel.name);
  const file = join(home, 'sentinel.conf');
  writeFileSync(file, sentinelConfig(sentinel, home, primary));
  const service = launch(sentinel, `sentinel ${sentinel.name}`, programs.redisServer, [
    file,
    '--sentinel',
  ]);
  await waitUntilReady([`tcp:${sentinel.address}:${SENTINEL_PORT}`], [service]);
  return service;
}

/** @param {Launch} launch @param {string} dir @param {Programs} programs */
async function startStore(launch, dir, programs) {
  const mongo = host('mongo');
  const { kind, path } = programs.mongoServer;
  const store = launch(
    mongo,
    kind,
    path,
    mongoServerArgs(kind, folder(dir, 'mongo'), mongo.address, MONGO_PORT, 8088),
    { env: mongoServerEnv(kind) },
  );
  await waitUntilReady([`tcp:${mongo.address}:${MONGO_PORT}`], [store]);
  return store;
}

/** @param {Launch} launch @param {string} rootDir */
async function startSmtpSink(launch, rootDir) {
  const smtp = host('smtp');
  const sink = launch(
    smtp,
    'smtp sink',
    process.execPath,
    [
      join(rootDir, 'scripts/cluster/smtp-sink.mjs'),
      smtp.address,
      `${SMTP_PORT}`,
      `${SINK_HTTP_PORT}`,
    ],
    { cwd: rootDir },
  );
  await waitUntilReady([`http-get://${smtp.address}:${SINK_HTTP_PORT}/count`], [sink]);
  return sink;
}

/** @param {Launch} launch @param {string} dir @param {Programs} programs */
async function startBalancer(launch, dir, programs) {
  const lb = host('lb');
  const configFile = join(folder(dir, 'lb'), 'haproxy.cfg');
  writeFileSync(configFile, haproxyConfig(lb, hostsOf('api')));
  const balancer = launch(lb, 'haproxy', programs.haproxy, ['-db', '-f', configFile]);
  await waitUntilReady([`tcp:${lb.address}:80`], [balancer]);
  return balancer;
}

/**
 * The servers under the product.
 * @param {{ network: ReturnType<typeof import('./network.mjs').clusterNetwork>, dir: string,
 *   programs: Programs, rootDir: string, verbose: boolean }} options
 */
export async function startInfrastructure({ network, dir, programs, rootDir, verbose }) {
  /** @type {Service[]} */
  const services = [];
  const launchOne = launcher(network, verbose);
  // Every server is kept for the stop as soon as it is launched, also one whose start fails.
  /** @type {Launch} */
  const launch = (...args) => {
    const service = launchOne(...args);
    services.push(service);
    return service;
  };
  /** @type {Map<string, Service>} */
  const redisOf = new Map();
  const [redis1, redis2] = hostsOf('redis');
  if (!redis1 || !redis2) throw new Error('the layout has two Redis hosts');

  /** @param {Host} target @param {Host | undefined} primary */
  const startRedis = async (target, primary) => {
    const service = launch(
      target,
      `redis ${target.name}`,
      programs.redisServer,
      redisArgs(target, dir, primary),
    );
    redisOf.set(target.name, service);
    await waitUntilReady([`tcp:${target.address}:${REDIS_PORT}`], [service]);
  };

  try {
    await startRedis(redis1, undefined);
    await startRedis(redis2, redis1);
    for (const sentinel of hostsOf('sentinel')) {
      await startSentinel(launch, sentinel, dir, programs, redis1);
    }
    await startStore(launch, dir, programs);
    await startSmtpSink(launch, rootDir);
    await startBalancer(launch, dir, programs);
  } catch (error) {
    await stopAll(services.reverse());
    throw error;
  }

  return {
    /** Starts Redis again on a host whose server was killed, as a replica of `primary`. */
    async restartRedis(/** @type {Host} */ target, /** @type {Host} */ primary) {
      await startRedis(target, primary);
    },
    /** The Redis server process of a host (undefined if none was started there). */
    redisService: (/** @type {Host} */ target) => redisOf.get(target.name),
    stop: () => stopAll(services.splice(0).reverse()),
  };
}

/**
 * HAProxy balances the API hosts and checks each every second. A host
 * counts as up when its API answers /api/health at all: 503 there means
 * Redis is away, when the API still stores enquiries (they are mailed
 * later), so it must keep receiving them. A request whose connection is
 * refused (the host died) is sent to the other host; one that reached a host
 * is never sent twice (an enquiry is not idempotent), so a host dying with
 * requests in hand fails those requests.
 * @param {Host} lb
 * @param {Host[]} apis
 */
export function haproxyConfig(lb, apis) {
  return [
    'global',
    '  maxconn 4096',
    'defaults',
    '  mode http',
    '  timeout connect 2s',
    '  timeout client 30s',
    '  timeout server 30s',
    '  retries 3',
    '  retry-on conn-failure',
    '  option redispatch',
    'frontend web',
    `  bind ${lb.address}:80`,
    '  default_backend api',
    'backend api',
    '  balance roundrobin',
    '  option forwardfor',
    '  option httpchk GET /api/health',
    '  http-check expect rstatus ^(200|503)$',
    '  default-server inter 1s fall 2 rise 2',
    ...apis.map((api) => `  server ${api.name} ${api.address}:${API_PORT} check`),
    '',
  ].join('\n');
}

/**
 * The settings of the API and worker hosts in one scenario: production mode,
 * Redis through the three Sentinels, the scenario's database and queue
 * prefix, relay and recovery passes every 5 s for what has been owed 10 s.
 * @param {{ database: string, queuePrefix: string, secret: string }} scenario
 * @returns {NodeJS.ProcessEnv}
 */
export function productEnvironment({ database, queuePrefix, secret }) {
  const [primary] = hostsOf('redis');
  return {
    PATH: process.env.PATH,
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    MONGODB_URI: `mongodb://${host('mongo').address}:${MONGO_PORT}/${database}`,
    // With Sentinels this names no server: they do.
    REDIS_URL: `redis://${primary?.address}:${REDIS_PORT}`,
    REDIS_SENTINELS: hostsOf('sentinel')
      .map((sentinel) => `${sentinel.address}:${SENTINEL_PORT}`)
      .join(','),
    REDIS_SENTINEL_NAME: SENTINEL_NAME,
    QUEUE_PREFIX: queuePrefix,
    JWT_SECRET: `${secret}-jwt`,
    MAIL_LINK_SECRET: `${secret}-mail-links`,
    API_HOST: '0.0.0.0',
    API_PORT: String(API_PORT),
    // HAProxy appends to X-Forwarded-For: believed from its address alone.
    TRUST_PROXY: host('lb').address,
    CORS_ORIGIN: `http://${host('lb').address}`,
    // Every enquiry comes from the client host: one address.
    CONTACT_RATE_LIMIT_MAX: '1000000',
    BOOTSTRAP_ADMIN_USERNAME: ADMIN.username,
    BOOTSTRAP_ADMIN_EMAIL: ADMIN.email,
    BOOTSTRAP_ADMIN_PASSWORD: ADMIN.password,
    SMTP_URL: `smtp://${host('smtp').address}:${SMTP_PORT}`,
    MAIL_TO: AGENCY_INBOX,
    // The scenarios sign in with the first admin's password alone.
    TWO_FACTOR_REQUIRED_ROLES: 'none',
    CAMPAIGN_CONCURRENCY: String(CAMPAIGN_CONCURRENCY),
    OUTBOX_RELAY_INTERVAL_SECONDS: '5',
    OUTBOX_PENDING_AGE_SECONDS: '10',
    CAMPAIGN_RECOVERY_INTERVAL_SECONDS: '5',
    CAMPAIGN_STALLED_AFTER_SECONDS: '10',
  };
}

/**
 * The product on its hosts: the API on each API host (the first one alone
 * first: it creates the admin), the worker on each worker host.
 * @param {{ network: ReturnType<typeof import('./network.mjs').clusterNetwork>, rootDir: string,
 *   env: NodeJS.ProcessEnv, verbose: boolean }} options
 */
export async function startProduct({ network, rootDir, env, verbose }) {
  const launch = launcher(network, verbose);
  /** @type {Map<string, Service>} */
  const running = new Map();
  const stop = async () => {
    await stopAll([...running.values()].reverse());
    running.clear();
  };
  try {
    for (const api of hostsOf('api')) {
      const service = launch(api, `api ${api.name}`, process.execPath, ['backend/dist/server.js'], {
        env,
        cwd: rootDir,
      });
      running.set(api.name, service);
      await waitUntilReady([`http-get://${api.address}:${API_PORT}/api/health`], [service], 90_000);
    }
    for (const worker of hostsOf('worker')) {
      const service = launch(
        worker,
        `worker ${worker.name}`,
        process.execPath,
        ['worker/dist/index.js'],
        { env: { ...env, ...workerProcessEnv(env) }, cwd: rootDir },
      );
      running.set(worker.name, service);
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    /** The product's process on a host. */
    serviceOn: (/** @type {Host} */ target) => running.get(target.name),
    stop,
  };
}
