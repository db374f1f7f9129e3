// @ts-check
/**
 * The one place that finds, and where it can installs, the programs the
 * stack and the tests need: Redis, a MongoDB-wire server (mongod, else
 * FerretDB built from the Go module proxy), Chromium and docker-compose,
 * Dovecot (the IMAP server the bounce mailbox test starts), an
 * S3-compatible server for the media library's tests (Versity S3 Gateway,
 * built from the Go module proxy), and for the cluster test iproute2
 * (`ip netns`) and HAProxy.
 * `npm start`, `npm test` (so `.ci/run`), the jest setup and the e2e stack
 * all come through here. Node built-ins only: it runs before npm install.
 */
import { spawnSync } from 'node:child_process';
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { runQuietly } from './bootstrap.mjs';
import { SetupError } from './console.mjs';

const FERRETDB_VERSION = 'v1.24.2';
const FERRETDB_MODULE = 'github.com/FerretDB/FerretDB';
/** Our build, with its `_id` lookups fixed (see fixIdLookups): named apart from a stock one. */
const FERRETDB_BUILD_NAME = `ferretdb-${FERRETDB_VERSION}-id-index`;
const VERSITYGW_VERSION = 'v1.8.0';
const VERSITYGW_PACKAGE = 'github.com/versity/versitygw/cmd/versitygw';
/** Named by version: a later version is built beside it, never taken for it. */
const VERSITYGW_BUILD_NAME = `versitygw-${VERSITYGW_VERSION}`;
/** Searched besides PATH: sbin is often missing from a user's PATH. */
const EXTRA_BIN_DIRS = ['/usr/local/bin', '/usr/bin', '/usr/sbin', '/usr/local/go/bin'];

/**
 * @typedef {'redis' | 'chromium' | 'dockerCompose' | 'iproute2' | 'haproxy' | 'dovecot'} AptProgram
 * @type {Record<AptProgram, { binaries: string[], aptPackage: string, instead?: string }>}
 */
const APT_PROGRAMS = {
  redis: { binaries: ['redis-server'], aptPackage: 'redis-server', instead: 'or set REDIS_URL' },
  chromium: {
    binaries: ['chromium', 'chromium-browser'],
    aptPackage: 'chromium',
    instead: 'or set CHROMIUM_PATH',
  },
  dockerCompose: { binaries: ['docker-compose'], aptPackage: 'docker-compose' },
  iproute2: { binaries: ['ip'], aptPackage: 'iproute2' },
  haproxy: { binaries: ['haproxy'], aptPackage: 'haproxy' },
  // The package's install also creates the users Dovecot runs its login and internal processes as.
  dovecot: { binaries: ['dovecot'], aptPackage: 'dovecot-imapd', instead: 'or set DOVECOT_BIN' },
};

/**
 * The full path of an executable on PATH or in the usual bin folders, else null.
 * @param {string} name
 */
export function findExecutable(name) {
  const dirs = [...(process.env.PATH ?? '').split(delimiter), ...EXTRA_BIN_DIRS];
  return dirs.map((dir) => join(dir, name)).find(isExecutable) ?? null;
}

/** @param {string} path */
function isExecutable(path) {
  const stat = statSync(path, { throwIfNoEntry: false });
  return Boolean(stat?.isFile() && stat.mode & 0o111);
}

/** @param {AptProgram} program */
function findAptProgram(program) {
  if (program === 'chromium' && process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH;
  if (program === 'dovecot' && process.env.DOVECOT_BIN) return process.env.DOVECOT_BIN;
  return APT_PROGRAMS[program].binaries.map(findExecutable).find(Boolean) ?? null;
}

/**
 * Installs whichever of these programs are missing, in one apt-get call.
 * @param {AptProgram[]} programs
 */
async function installWithApt(programs) {
  const missing = programs.filter((program) => findAptProgram(program) === null);
  if (missing.length === 0) return;
  const packages = missing.map((program) => APT_PROGRAMS[program].aptPackage);
  const aptGet = findExecutable('apt-get');
  if (!aptGet || process.getuid?.() !== 0) {
    const [first] = missing.map((program) => APT_PROGRAMS[program]);
    throw new SetupError(
      `${first?.binaries[0]} not found: install ${packages.join(' ')} (apt-get install -y ${packages.join(' ')})` +
        (first?.instead ? ` ${first.instead}` : ''),
    );
  }
  console.log(`Installing ${packages.join(' ')} with apt-get...`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  await runQuietly(aptGet, ['-q', 'update'], { env });
  await runQuietly(aptGet, ['-q', 'install', '-y', '--no-install-recommends', ...packages], {
    env,
  });
  console.log(`Installed ${packages.join(' ')}.`);
}

/** @param {string} path */
function isFerretDbV1(path) {
  const result = spawnSync(path, ['--version'], { encoding: 'utf8', timeout: 10_000 });
  return result.status === 0 && /version:\s*v1\./.test(result.stdout);
}

/** @param {string | null} go */
async function goBinDir(go) {
  const gopath = go ? (await runQuietly(go, ['env', 'GOPATH'])).trim().split(delimiter)[0] : '';
  return join(gopath || join(homedir(), 'go'), 'bin');
}

/**
 * FerretDB 1.x's SQLite backend indexes `_id` as `_ferretdb_sjson->"_id"` but
 * looks documents up by `_ferretdb_sjson->'$._id'`. SQLite matches index
 * expressions by their text, so every find, update and delete by `_id`
 * scanned the whole table: 45 ms for one receipt among 14,000, 84 ms to
 * update one contact among 20,000, about 1 ms each once both are written
 * the same way. The lookup is written as the index is.
 * @param {string} source a writable copy of the module
 */
function fixIdLookups(source) {
  const file = join(source, 'internal', 'backends', 'sqlite', 'metadata', 'metadata.go');
  const scanning = `IDColumn = DefaultColumn + "->'$._id'"`;
  const text = readFileSync(file, 'utf8');
  if (!text.includes(scanning)) {
    throw new SetupError(`FerretDB ${FERRETDB_VERSION}: ${file} no longer holds ${scanning}`);
  }
  writeFileSync(file, text.replace(scanning, 'IDColumn = DefaultColumn + `->"_id"`'));
}

/**
 * Builds FerretDB into GOPATH/bin. `go install ...@version` cannot: the proxy
 * refuses the version list and the module lacks build/version/version.txt,
 * so a patched copy of the downloaded module is built.
 * @param {string} go
 * @param {string} target
 */
async function buildFerretDb(go, target) {
  console.log(`Building FerretDB ${FERRETDB_VERSION} with Go (once; about a minute)...`);
  const env = { ...process.env, GOTOOLCHAIN: 'local', GOFLAGS: '-mod=mod' };
  const download = await runQuietly(
    go,
    ['mod', 'download', '-json', `${FERRETDB_MODULE}@${FERRETDB_VERSION}`],
    { cwd: tmpdir(), env },
  );
  const source = /** @type {{ Dir?: string }} */ (JSON.parse(download)).Dir;
  if (!source) throw new SetupError(`go mod download gave no folder for ${FERRETDB_MODULE}`);
  const workDir = mkdtempSync(join(tmpdir(), 'ferretdb-build-'));
  const partial = `${target}.partial-${process.pid}`;
  try {
    const copy = join(workDir, 'src');
    cpSync(source, copy, { recursive: true });
    await runQuietly('chmod', ['-R', 'u+w', copy]);
    writeFileSync(join(copy, 'build', 'version', 'version.txt'), `${FERRETDB_VERSION}\n`);
    fixIdLookups(copy);
    mkdirSync(join(target, '..'), { recursive: true });
    await runQuietly(go, ['build', '-o', partial, './cmd/ferretdb'], { cwd: copy, env });
    renameSync(partial, target);
  } finally {
    rmSync(workDir, { recursive: true, force: true });
    rmSync(partial, { force: true });
  }
  if (!isFerretDbV1(target)) throw new SetupError(`The FerretDB built at ${target} does not run`);
  console.log(`FerretDB ${FERRETDB_VERSION} built: ${target}`);
}

/**
 * mongod from PATH when there is one, else FerretDB 1.x (found, or built).
 * @returns {Promise<{ kind: 'mongod' | 'ferretdb', path: string }>}
 */
async function findOrBuildMongoServer() {
  const mongod = findExecutable('mongod');
  if (mongod) return { kind: 'mongod', path: mongod };
  const go = findExecutable('go');
  const built = join(await goBinDir(go), FERRETDB_BUILD_NAME);
  if (isFerretDbV1(built)) return { kind: 'ferretdb', path: built };
  if (go) {
    await buildFerretDb(go, built);
    return { kind: 'ferretdb', path: built };
  }
  // A stock FerretDB works too, with every `_id` lookup a table scan.
  const stock = findExecutable('ferretdb');
  if (stock && isFerretDbV1(stock)) return { kind: 'ferretdb', path: stock };
  throw new SetupError(
    'MongoDB not found: set MONGODB_URI, put mongod on PATH, or install Go 1.22+ so FerretDB can be built',
  );
}

/**
 * Versity S3 Gateway (Apache-2.0), the S3-compatible server the media tests
 * store images in: found in GOPATH/bin, else built there once (about 40 s).
 */
async function findOrBuildS3Server() {
  const go = findExecutable('go');
  const built = join(await goBinDir(go), VERSITYGW_BUILD_NAME);
  if (isExecutable(built)) return built;
  if (!go) {
    throw new SetupError(
      'No S3-compatible server for the media tests: install Go 1.22+ so Versity S3 Gateway can be built, or set MEDIA_TEST_S3_ENDPOINT',
    );
  }
  console.log(`Building Versity S3 Gateway ${VERSITYGW_VERSION} with Go (once; about a minute)...`);
  const gobin = mkdtempSync(join(tmpdir(), 'versitygw-build-'));
  const partial = `${built}.partial-${process.pid}`;
  try {
    const env = { ...process.env, GOBIN: gobin, GOFLAGS: '-mod=mod', GOTOOLCHAIN: 'local' };
    await runQuietly(go, ['install', `${VERSITYGW_PACKAGE}@${VERSITYGW_VERSION}`], {
      cwd: tmpdir(),
      env,
    });
    mkdirSync(join(built, '..'), { recursive: true });
    // GOBIN may be on another file system than GOPATH: copied, then renamed into place.
    cpSync(join(gobin, 'versitygw'), partial);
    renameSync(partial, built);
  } finally {
    rmSync(gobin, { recursive: true, force: true });
    rmSync(partial, { force: true });
  }
  console.log(`Versity S3 Gateway ${VERSITYGW_VERSION} built: ${built}`);
  return built;
}

/** @type {Promise<void>} apt-get calls one after the other: apt holds a lock */
let aptQueue = Promise.resolve();
/** @type {ReturnType<typeof findOrBuildMongoServer> | undefined} */
let mongoServer;
/** @type {ReturnType<typeof findOrBuildS3Server> | undefined} */
let s3Server;

/**
 * Makes sure the chosen programs are there: one apt-get call for the missing
 * packages while FerretDB and Versity S3 Gateway build, if they must.
 * @param {{ redis?: boolean, mongo?: boolean, s3?: boolean, chromium?: boolean,
 *   dockerCompose?: boolean, iproute2?: boolean, haproxy?: boolean, dovecot?: boolean }} choice
 */
export async function ensureSystemPrograms(choice) {
  const apt = /** @type {AptProgram[]} */ ([
    'redis',
    'chromium',
    'dockerCompose',
    'iproute2',
    'haproxy',
    'dovecot',
  ]).filter((program) => choice[program]);
  aptQueue = aptQueue.then(() => installWithApt(apt));
  if (choice.mongo) mongoServer ??= findOrBuildMongoServer();
  if (choice.s3) s3Server ??= findOrBuildS3Server();
  const [, mongo, s3] = await Promise.all([
    aptQueue,
    choice.mongo ? mongoServer : undefined,
    choice.s3 ? s3Server : undefined,
  ]);
  /** @param {AptProgram} program */
  const path = (program) => (choice[program] ? (findAptProgram(program) ?? undefined) : undefined);
  return {
    redisServer: path('redis'),
    mongoServer: mongo,
    s3Server: s3,
    chromium: path('chromium'),
    dockerCompose: path('dockerCompose'),
    ip: path('iproute2'),
    haproxy: path('haproxy'),
    dovecot: path('dovecot'),
  };
}
