import { createHash, randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Secrets an installation makes for itself when it is not given them outside
 * production (npm start, the demo, the tests): random at the first start,
 * then kept in the data folder, so that a restart keeps sessions, two-factor
 * enrolments and mail links valid. No value is ever in the source: a fixed
 * development secret is one every reader of the repository can sign with.
 *
 * This file uses Node's built-ins only: a test runs it in several processes
 * at once.
 */

/** The folder under the data folder; one file per secret, named as its variable. */
export const SECRETS_FOLDER = 'secrets';
/** 48 random bytes: 64 base64url characters, past every length check of ours. */
const SECRET_BYTES = 48;
const SHORTEST_KEPT_SECRET = 32;

export function keptSecretPath(dataDir: string, name: string): string {
  return join(dataDir, SECRETS_FOLDER, name);
}

// Not `instanceof Error`: errors made in another realm (a VM context) fail it.
function errorCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error
    ? String(error.code)
    : undefined;
}

function readKeptSecret(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch (error: unknown) {
    if (errorCode(error) === 'ENOENT') return undefined;
    throw error;
  }
}

/**
 * Writes the secret under a name of this process's own, then links it to its
 * real name: a link never replaces a file that exists, and never shows a half
 * written one. Of an API and a worker starting at the same moment, one link
 * wins and the other reads the winner's value, so both sign with the same key.
 */
function createKeptSecret(path: string): void {
  const draft = `${path}.${process.pid}.${randomBytes(6).toString('hex')}.draft`;
  writeFileSync(draft, `${randomBytes(SECRET_BYTES).toString('base64url')}\n`, {
    mode: 0o600,
    flag: 'wx',
  });
  try {
    linkSync(draft, path);
  } catch (error: unknown) {
    if (errorCode(error) !== 'EEXIST') throw error;
  } finally {
    unlinkSync(draft);
  }
}

/**
 * The secret kept in `dataDir` under `name`, made at its first use. Throws
 * when the kept file holds something too short to be one of ours (edited by
 * hand, or cut short): a weak key must not be taken silently.
 */
export function keptSecret(dataDir: string, name: string): string {
  const path = keptSecretPath(dataDir, name);
  let secret = readKeptSecret(path);
  if (secret === undefined) {
    mkdirSync(join(dataDir, SECRETS_FOLDER), { recursive: true, mode: 0o700 });
    createKeptSecret(path);
    secret = readKeptSecret(path) ?? '';
  }
  if (secret.length < SHORTEST_KEPT_SECRET) {
    throw new Error(
      `${path} holds fewer than ${SHORTEST_KEPT_SECRET} characters: delete it to have a new secret made, or set ${name}`,
    );
  }
  return secret;
}

/**
 * SHA-256 digests of the development secrets older releases had in their
 * source and their .env.example: public, so refused wherever they are set.
 * Digests, so that the values themselves are not in the source any more.
 */
const RETIRED_PUBLIC_SECRETS = new Set([
  '6d40219008389107b372d5315190b275c3efbdbff147e6ee9fd8140146430cd1',
  '2eea9549616e20b4003a91244617d5acecebdc3e1837a80cb073c04706d1c32f',
]);

export function isRetiredPublicSecret(value: string): boolean {
  return RETIRED_PUBLIC_SECRETS.has(createHash('sha256').update(value).digest('hex'));
}
