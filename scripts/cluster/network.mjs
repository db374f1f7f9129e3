// @ts-check
/**
 * The cluster's hosts: one Linux network namespace each, with its own
 * address on a private /24, all plugged into a bridge that lives in a
 * namespace of its own (the "switch"). Nothing is added to the machine's own
 * namespace: no interface, no route, no address, so the cluster's traffic
 * cannot leave it and nothing outside can reach it.
 *
 * Every namespace of a run is named `agency-cluster-<pid>-<host>` after the
 * process that made it: a later run deletes those of runs whose process is
 * gone (interrupted by SIGKILL, a crash), and leaves a live run's alone.
 */
import { execFile } from 'node:child_process';
import { readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export const NAMESPACE_PREFIX = 'agency-cluster-';
/** The run's temporary folder (data, configurations, logs) is named the same way. */
export const TEMP_PREFIX = 'agency-cluster-';
const SUBNET = '10.77.0';

/**
 * @typedef {'client' | 'redis' | 'sentinel' | 'mongo' | 'lb' | 'api' | 'worker' | 'smtp'} Role
 * @typedef {{ name: string, role: Role, address: string }} Host
 */

/** @type {[string, Role, number][]} */
const LAYOUT = [
  ['client', 'client', 2],
  ['redis1', 'redis', 11],
  ['redis2', 'redis', 12],
  ['sentinel1', 'sentinel', 21],
  ['sentinel2', 'sentinel', 22],
  ['sentinel3', 'sentinel', 23],
  ['mongo', 'mongo', 30],
  ['lb', 'lb', 40],
  ['api1', 'api', 41],
  ['api2', 'api', 42],
  ['worker1', 'worker', 51],
  ['worker2', 'worker', 52],
  ['worker3', 'worker', 53],
  ['smtp', 'smtp', 60],
];

/** @type {Host[]} */
export const HOSTS = LAYOUT.map(([name, role, last]) => ({
  name,
  role,
  address: `${SUBNET}.${last}`,
}));

/** @param {Role} role */
export const hostsOf = (role) => HOSTS.filter((host) => host.role === role);

/** @param {string} name */
export function host(name) {
  const found = HOSTS.find((candidate) => candidate.name === name);
  if (!found) throw new Error(`no host named ${name}`);
  return found;
}

/** @param {string[]} args */
async function ip(...args) {
  try {
    const { stdout } = await run('ip', args, { encoding: 'utf8' });
    return stdout;
  } catch (error) {
    const stderr = /** @type {{ stderr?: string }} */ (error).stderr?.trim();
    throw new Error(`ip ${args.join(' ')} failed${stderr ? `: ${stderr}` : ''}`, {
      cause: error,
    });
  }
}

/** The namespaces that exist now, by name. */
async function namespaces() {
  const listed = await ip('netns', 'list');
  return listed
    .split('\n')
    .map((line) => line.split(' ')[0] ?? '')
    .filter(Boolean);
}

/** @param {number} pid */
function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return /** @type {NodeJS.ErrnoException} */ (error).code === 'EPERM';
  }
}

/**
 * SIGKILLs each process at once.
 * @param {number[]} pids
 */
function killAll(pids) {
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Gone already.
    }
  }
}

/**
 * SIGKILLs every process in a namespace, then deletes it (its interfaces go
 * with it: a veth pair dies with either end's namespace).
 * @param {string} namespace
 */
async function destroyNamespace(namespace) {
  for (let round = 0; round < 5; round += 1) {
    const pids = (await ip('netns', 'pids', namespace).catch(() => ''))
      .split('\n')
      .map(Number)
      .filter((pid) => pid > 0 && pid !== process.pid);
    if (pids.length === 0) break;
    killAll(pids);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await ip('netns', 'delete', namespace).catch(() => undefined);
}

/**
 * Deletes what earlier runs left behind: namespaces and temporary folders of
 * runs whose process no longer exists. Answers what it removed.
 */
export async function removeStaleRuns() {
  const pattern = new RegExp(`^${NAMESPACE_PREFIX}(\\d+)-`);
  const stale = (await namespaces()).filter((name) => {
    const pid = Number(pattern.exec(name)?.[1]);
    return pid > 0 && !isAlive(pid);
  });
  for (const namespace of stale) await destroyNamespace(namespace);
  const folders = readdirSync(tmpdir()).filter((name) => {
    const pid = Number(new RegExp(`^${TEMP_PREFIX}(\\d+)-`).exec(name)?.[1]);
    return pid > 0 && !isAlive(pid);
  });
  for (const folder of folders) rmSync(join(tmpdir(), folder), { recursive: true, force: true });
  return { namespaces: stale.length, folders: folders.length };
}

/** The bridge port of a host, in the switch namespace (15 characters at most). */
const portOf = (/** @type {Host} */ target) => `p-${target.name}`;

/**
 * The switch: a namespace of its own holding the bridge, loopback up.
 * @param {string} switchNamespace
 */
async function createSwitch(switchNamespace) {
  await ip('netns', 'add', switchNamespace);
  await ip('-n', switchNamespace, 'link', 'set', 'lo', 'up');
  await ip('-n', switchNamespace, 'link', 'add', 'br0', 'type', 'bridge');
  await ip('-n', switchNamespace, 'link', 'set', 'br0', 'up');
}

/**
 * A host's namespace, loopback up, plugged into the switch's bridge with its
 * address on `eth0`.
 * @param {string} switchNamespace
 * @param {string} namespace
 * @param {Host} target
 */
async function createHost(switchNamespace, namespace, target) {
  await ip('netns', 'add', namespace);
  await ip('-n', namespace, 'link', 'set', 'lo', 'up');
  // Both ends are made where they belong: the machine's namespace never holds either.
  await ip(
    '-n',
    switchNamespace,
    'link',
    'add',
    portOf(target),
    'type',
    'veth',
    'peer',
    'name',
    'eth0',
    'netns',
    namespace,
  );
  await ip('-n', switchNamespace, 'link', 'set', portOf(target), 'master', 'br0', 'up');
  await ip('-n', namespace, 'addr', 'add', `${target.address}/24`, 'dev', 'eth0');
  await ip('-n', namespace, 'link', 'set', 'eth0', 'up');
}

/**
 * The namespaces of one run, made by the process `ownerPid`.
 * @param {number} ownerPid
 */
export function clusterNetwork(ownerPid) {
  const prefix = `${NAMESPACE_PREFIX}${ownerPid}-`;
  const switchNamespace = `${prefix}switch`;
  /** @param {Host | string} target */
  const namespaceOf = (target) => `${prefix}${typeof target === 'string' ? target : target.name}`;

  return {
    namespaceOf,

    /** Makes the switch and every host, each with its address, loopback up. */
    async create() {
      await createSwitch(switchNamespace);
      for (const target of HOSTS) await createHost(switchNamespace, namespaceOf(target), target);
    },

    /**
     * Unplugs a host from the switch for `ms`, then plugs it back: its
     * processes live on, their connections see nothing (no reset), as when a
     * cable or a switch port fails.
     * @param {Host} target
     * @param {number} ms
     */
    async cutLink(target, ms) {
      await ip('-n', switchNamespace, 'link', 'set', portOf(target), 'down');
      await new Promise((resolve) => setTimeout(resolve, ms));
      await ip('-n', switchNamespace, 'link', 'set', portOf(target), 'up');
    },

    /**
     * SIGKILLs every process of a host at once, as a power cut would; the
     * host keeps its address (nothing answers there any more).
     * @param {Host} target
     */
    async killHost(target) {
      const pids = (await ip('netns', 'pids', namespaceOf(target)))
        .split('\n')
        .map(Number)
        .filter((pid) => pid > 0);
      killAll(pids);
      return pids.length;
    },

    /** Every process in every namespace of the run, then the namespaces. */
    async destroy() {
      const ours = (await namespaces()).filter((name) => name.startsWith(prefix));
      // Hosts first, the switch last: the cluster stays one network while its processes die.
      ours.sort((a, b) => Number(a === switchNamespace) - Number(b === switchNamespace));
      for (const namespace of ours) await destroyNamespace(namespace);
    },
  };
}
