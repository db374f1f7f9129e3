// @ts-check
/**
 * Finds, and where possible installs, the programs the local stack and the
 * tests need: Redis, a MongoDB-wire server (mongod, else FerretDB built from
 * the Go module proxy), Chromium and docker-compose. Installs happen only
 * when something is missing, at most once per process, and only as root
 * (apt-get); otherwise a SetupError names the package or variable to set.
 */
import { spawnSync } from 'node:child_process';
import {
  accessSync,
  chmodSync,
  constants as fsConstants,
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { SetupError } from './setup-error.mjs';

export const FERRETDB_VERSION = 'v1.24.2';
const FERRETDB_MODULE = 'github.com/FerretDB/FerretDB';

/**
 * @typedef {'redis' | 'chromium' | 'docker-compose'} AptToolName
 * @typedef {object} AptTool
 * @property {string} label how the user knows it
 * @property {string[]} binaries executable names, first found wins
 * @property {string} aptPackage
 * @property {string} [alternative] what else the user can do instead of installing
 */

/** @type {Record<AptToolName, AptTool>} */
const APT_TOOLS = {
  redis: {
    label: 'Redis',
    binaries: ['redis-server'],
    aptPackage: 'redis-server',
    alternative: 'or set REDIS_URL',
  },
  chromium: {
    label: 'Chromium',
    binaries: ['chromium', 'chromium-browser'],
    aptPackage: 'chromium',
    alternative: 'or set CHROMIUM_PATH',
  },
  'docker-compose': {
    label: 'docker-compose',
    binaries: ['docker-compose'],
    aptPackage: 'docker-compose',
  },
};

/** Directories searched besides PATH (sbin is often missing from a user's PATH). */
const EXTRA_BIN_DIRS = ['/usr/local/bin', '/usr/bin', '/usr/sbin', '/usr/local/go/bin'];

let aptIndexUpdated = false;

/** @param {string} path */
function isExecutableFile(path) {
  try {
    accessSync(path, fsConstants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/**
 * The full path of an executable on PATH (or in `extraDirs`), else null.
 * @param {string} name
 * @param {string[]} [extraDirs]
 * @returns {string | null}
 */
export function findExecutable(name, extraDirs = EXTRA_BIN_DIRS) {
  const dirs = [...(process.env.PATH ?? '').split(delimiter), ...extraDirs].filter(Boolean);
  for (const dir of dirs) {
    const candidate = join(dir, name);
    if (isExecutableFile(candidate)) return candidate;
  }
  return null;
}

export function isRoot() {
  return process.getuid?.() === 0;
}

/** Installs through apt-get only as root on a machine that has it. */
function canInstallWithApt() {
  return isRoot() && findExecutable('apt-get') !== null;
}

/**
 * @param {string} command
 * @param {string[]} args
 */
function runAptGet(command, args) {
  const result = spawnSync(command, args, {
    stdio: 'inherit',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  if (result.status !== 0) {
    throw new SetupError(`${command} ${args.join(' ')} failed (exit ${result.status ?? 'signal'})`);
  }
}

/**
 * `apt-get update` (once per process) then `apt-get install` of the packages.
 * @param {string[]} packages
 */
export function aptInstall(packages) {
  if (packages.length === 0) return;
  const aptGet = findExecutable('apt-get');
  if (!aptGet || !isRoot()) {
    throw new SetupError(`Installing ${packages.join(' ')} needs root and apt-get`);
  }
  console.log(`Installing ${packages.join(' ')} with apt-get...`);
  if (!aptIndexUpdated) {
    runAptGet(aptGet, ['update']);
    aptIndexUpdated = true;
  }
  runAptGet(aptGet, ['install', '-y', '--no-install-recommends', ...packages]);
}

/** @param {AptToolName} name */
function findAptTool(name) {
  for (const binary of APT_TOOLS[name].binaries) {
    const path = findExecutable(binary);
    if (path) return path;
  }
  return null;
}

/** @param {AptToolName} name */
function missingToolError(name) {
  const { label, aptPackage, alternative } = APT_TOOLS[name];
  return new SetupError(
    `${label} not found: install ${aptPackage} (apt-get install -y ${aptPackage})` +
      (alternative ? ` ${alternative}` : ''),
  );
}

/**
 * Installs, in one apt-get call, whichever of these tools are missing.
 * @param {AptToolName[]} names
 */
export function installMissingAptTools(names) {
  const missing = names.filter((name) => findAptTool(name) === null);
  if (missing.length === 0) return;
  const [first] = missing;
  if (!canInstallWithApt() && first) throw missingToolError(first);
  aptInstall(missing.map((name) => APT_TOOLS[name].aptPackage));
}

/**
 * @param {AptToolName} name
 * @returns {string} the executable's path
 */
function ensureAptTool(name) {
  installMissingAptTools([name]);
  const path = findAptTool(name);
  if (!path) throw missingToolError(name);
  return path;
}

/** @returns {string} path of redis-server */
export function ensureRedisServer() {
  return ensureAptTool('redis');
}

/** @returns {string} path of the Chromium executable (CHROMIUM_PATH wins when set) */
export function ensureChromium() {
  const configured = process.env.CHROMIUM_PATH;
  if (configured) {
    if (!isExecutableFile(configured)) {
      throw new SetupError(`CHROMIUM_PATH=${configured} is not an executable file`);
    }
    return configured;
  }
  return ensureAptTool('chromium');
}

/** @returns {string} path of docker-compose */
export function ensureDockerCompose() {
  return ensureAptTool('docker-compose');
}

/**
 * @typedef {object} MongoServer
 * @property {'mongod' | 'ferretdb'} kind
 * @property {string} path
 */

/** @type {MongoServer | undefined} */
let mongoServer;

/**
 * A MongoDB-wire server to run: mongod from PATH when there is one, else
 * FerretDB 1.x (found, or built once from the Go module proxy).
 * @returns {MongoServer}
 */
export function ensureMongoServer() {
  if (mongoServer) return mongoServer;
  const mongod = findExecutable('mongod');
  if (mongod) return (mongoServer = { kind: 'mongod', path: mongod });
  const ferretdb = findWorkingFerretDb() ?? buildFerretDb();
  return (mongoServer = { kind: 'ferretdb', path: ferretdb });
}

/** @param {string} path */
function isWorkingFerretDbV1(path) {
  const result = spawnSync(path, ['--version'], { encoding: 'utf8', timeout: 10_000 });
  return result.status === 0 && /version:\s*v1\./.test(result.stdout);
}

/** @returns {string | null} */
function findGo() {
  return findExecutable('go');
}

/** @param {string} go */
function goBinDir(go) {
  const result = spawnSync(go, ['env', 'GOPATH'], { encoding: 'utf8' });
  const gopath = result.status === 0 ? result.stdout.trim().split(delimiter)[0] : undefined;
  return join(gopath || join(homedir(), 'go'), 'bin');
}

/** @returns {string | null} */
function findWorkingFerretDb() {
  const candidates = [
    findExecutable('ferretdb'),
    join(process.env.GOPATH?.split(delimiter)[0] || join(homedir(), 'go'), 'bin', 'ferretdb'),
  ];
  const go = findGo();
  if (go) candidates.push(join(goBinDir(go), 'ferretdb'));
  for (const candidate of candidates) {
    if (candidate && isExecutableFile(candidate) && isWorkingFerretDbV1(candidate))
      return candidate;
  }
  return null;
}

/**
 * Module-cache files are read-only; the build needs to write version.txt.
 * @param {string} dir
 */
function makeTreeWritable(dir) {
  chmodSync(dir, 0o755);
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) makeTreeWritable(path);
    else if (entry.isFile()) chmodSync(path, 0o644);
  }
}

/**
 * @param {string} go
 * @returns {string} the module's source directory in the Go module cache
 */
function downloadFerretDbSource(go) {
  const result = spawnSync(
    go,
    ['mod', 'download', '-json', `${FERRETDB_MODULE}@${FERRETDB_VERSION}`],
    { cwd: tmpdir(), encoding: 'utf8', env: { ...process.env, GOTOOLCHAIN: 'local' } },
  );
  /** @type {{ Dir?: string, Error?: string }} */
  let info = {};
  try {
    info = JSON.parse(result.stdout);
  } catch {
    // Reported below with stderr.
  }
  if (result.status !== 0 || !info.Dir) {
    const reason = info.Error ?? result.stderr.trim().split('\n').pop() ?? 'unknown error';
    throw new SetupError(`Could not download FerretDB ${FERRETDB_VERSION} with Go: ${reason}`);
  }
  return info.Dir;
}

/**
 * Builds FerretDB from the Go module proxy into GOPATH/bin. `go install
 * ...@version` cannot be used: the proxy refuses the version list and the
 * module zip lacks build/version/version.txt, so we build a patched copy.
 * @returns {string} path of the built binary
 */
export function buildFerretDb() {
  const go = findGo();
  if (!go) {
    throw new SetupError(
      'MongoDB not found: set MONGODB_URI to a running MongoDB, put mongod on PATH, or install Go 1.22+ so FerretDB can be built',
    );
  }
  console.log(`Building FerretDB ${FERRETDB_VERSION} with Go (once; about a minute)...`);
  const source = downloadFerretDbSource(go);
  const workDir = mkdtempSync(join(tmpdir(), 'ferretdb-build-'));
  const binDir = goBinDir(go);
  const target = join(binDir, 'ferretdb');
  const partial = `${target}.partial-${process.pid}`;
  try {
    const copy = join(workDir, 'src');
    cpSync(source, copy, { recursive: true });
    makeTreeWritable(copy);
    writeFileSync(join(copy, 'build', 'version', 'version.txt'), `${FERRETDB_VERSION}\n`);
    mkdirSync(binDir, { recursive: true });
    const build = spawnSync(go, ['build', '-o', partial, './cmd/ferretdb'], {
      cwd: copy,
      stdio: 'inherit',
      env: { ...process.env, GOTOOLCHAIN: 'local', GOFLAGS: '-mod=mod' },
    });
    if (build.status !== 0) {
      throw new SetupError(`Building FerretDB failed (go build exit ${build.status ?? 'signal'})`);
    }
    renameSync(partial, target);
  } finally {
    rmSync(workDir, { recursive: true, force: true });
    rmSync(partial, { force: true });
  }
  if (!isWorkingFerretDbV1(target)) {
    throw new SetupError(`The FerretDB built at ${target} does not run (try: ${target} --version)`);
  }
  console.log(`FerretDB ${FERRETDB_VERSION} built: ${target}`);
  return target;
}

/**
 * @typedef {object} SystemDependencyChoice
 * @property {boolean} [redis]
 * @property {boolean} [mongo]
 * @property {boolean} [chromium]
 * @property {boolean} [dockerCompose]
 */

/**
 * Ensures the chosen dependencies (all by default), installing the missing
 * apt packages in a single apt-get call.
 * @param {SystemDependencyChoice} [choice]
 * @returns {{ redisServer?: string, mongoServer?: MongoServer, chromium?: string, dockerCompose?: string }}
 */
export function ensureSystemDependencies({
  redis = true,
  mongo = true,
  chromium = true,
  dockerCompose = true,
} = {}) {
  /** @type {AptToolName[]} */
  const aptTools = [];
  if (redis) aptTools.push('redis');
  if (chromium && !process.env.CHROMIUM_PATH) aptTools.push('chromium');
  if (dockerCompose) aptTools.push('docker-compose');
  installMissingAptTools(aptTools);
  return {
    redisServer: redis ? ensureRedisServer() : undefined,
    mongoServer: mongo ? ensureMongoServer() : undefined,
    chromium: chromium ? ensureChromium() : undefined,
    dockerCompose: dockerCompose ? ensureDockerCompose() : undefined,
  };
}
