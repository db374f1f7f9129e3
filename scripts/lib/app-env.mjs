// @ts-check
/**
 * The environment the local stack gives the API and the worker. The app's
 * own defaults live in its envalid schemas (backend/src/config.ts,
 * worker/src/config.ts); a run adds only what it decides itself.
 */
import { join } from 'node:path';

/**
 * The worker must be told where enquiry notifications go and has no default
 * for it; a local run sends them to this address, which MailDev catches.
 */
export const LOCAL_AGENCY_INBOX = 'hello@agency.local';

/**
 * Where the web server's requests to the API come from: `vite preview`
 * proxies /api to the API on 127.0.0.1, so its connections leave from there.
 * The API believes the visitor's address (X-Forwarded-For, which that server
 * sets) from this address only: per-address sign-in and form limits then
 * count each visitor, and no visitor can name an address of their choice
 * (only a program on this machine, calling the API directly, could).
 */
export const WEB_PROXY_ADDRESS = '127.0.0.1';

/** The worker's heap cap (MB of V8 old space) when WORKER_HEAP_MB is not set; docker-compose.yml repeats it. */
export const WORKER_HEAP_MB_DEFAULT = 112;

/**
 * The worker's young generation: each of its semi-spaces at most this many MB
 * (V8's default on 64 bits is 16, and the young generation holds three).
 * docker-compose.yml repeats it. Each message's own bytes are few (the
 * frame's parts are shared, the message is laid out in its connection's
 * reused buffer), so 4 costs little: both campaign workers together peak
 * near 225 MB on a short mail and 240 MB on a 50 KB newsletter, against 240
 * and 255-260 MB at 8. At 2 they peak near 212 MB, but the more frequent
 * young collections cost about a quarter more worker CPU per mail
 * (docs/benchmarks.md, bench:mail).
 */
export const WORKER_SEMI_SPACE_MB = 4;

/**
 * The worker's NODE_OPTIONS: the caller's, then a cap on its heap. V8 sizes
 * the heap from the machine's memory and collects late, so an uncapped worker
 * held 200-250 MB after a 20,000-mail campaign; capped at 112 MB it peaked
 * near 135-145 MB, and with the smaller semi-spaces above near 110-130 MB
 * (docs/benchmarks.md, bench:mail). A dispatch holds one page of
 * recipients whatever the audience's size (whom it met is kept in Redis).
 * V8 fixes both when the process starts: they cannot be set later.
 * @param {NodeJS.ProcessEnv} env
 * @returns {string}
 */
export function workerNodeOptions(env) {
  const heapMb = env.WORKER_HEAP_MB || String(WORKER_HEAP_MB_DEFAULT);
  if (!/^\d+$/.test(heapMb) || Number(heapMb) < 64) {
    throw new Error(`WORKER_HEAP_MB must be a whole number of MB, 64 or more (got "${heapMb}")`);
  }
  return [
    env.NODE_OPTIONS,
    `--max-old-space-size=${heapMb}`,
    `--max-semi-space-size=${WORKER_SEMI_SPACE_MB}`,
  ]
    .filter(Boolean)
    .join(' ');
}

/**
 * glibc's allocator, as the worker's image and this machine run it, tuned
 * for the worker. By default a thread that meets contention gets an arena
 * of its own (up to 8 per core): V8's collector threads and libuv's pool
 * fill several, and what they free mostly stays resident. And once a buffer
 * past 128 KB (a reply of the store, a batch's rosters) is freed, glibc
 * raises its mmap threshold, so that later ones are carved from an arena
 * and seldom given back. Two arenas and a fixed threshold: both campaign
 * workers together peaked 8-10 MB lower at 50,000 and 200,000 recipients
 * (docs/benchmarks.md, bench:mail), at no more CPU per mail. The caller's
 * own values, if any, win. docker-compose.yml repeats them.
 */
export const WORKER_MALLOC_DEFAULTS = Object.freeze({
  MALLOC_ARENA_MAX: '2',
  MALLOC_MMAP_THRESHOLD_: '131072',
});

/**
 * What a worker process gets on top of its environment: its heap cap and
 * semi-spaces (NODE_OPTIONS) and glibc's allocator settings.
 * @param {NodeJS.ProcessEnv} env
 * @returns {Record<string, string>}
 */
export function workerProcessEnv(env) {
  return {
    MALLOC_ARENA_MAX: env.MALLOC_ARENA_MAX || WORKER_MALLOC_DEFAULTS.MALLOC_ARENA_MAX,
    MALLOC_MMAP_THRESHOLD_:
      env.MALLOC_MMAP_THRESHOLD_ || WORKER_MALLOC_DEFAULTS.MALLOC_MMAP_THRESHOLD_,
    NODE_OPTIONS: workerNodeOptions(env),
  };
}

/**
 * Demo mode unless the caller says DEMO_MODE=false, and never in production.
 * @param {NodeJS.ProcessEnv} env
 */
export function wantsDemoMode(env) {
  return env.NODE_ENV !== 'production' && env.DEMO_MODE !== 'false';
}

/**
 * `dataDir` is the run's data folder: outside production the API and the
 * worker keep there the secrets they make when none is given (one
 * MAIL_LINK_SECRET for both), so a restart keeps sessions and mail links.
 * @param {{ baseEnv: NodeJS.ProcessEnv, dataDir: string, apiPort: number, webUrl: string,
 *   mongodbUri: string, redisUrl: string, smtpUrl?: string, demoMode: boolean,
 *   runSettings?: NodeJS.ProcessEnv }} run
 * @returns {NodeJS.ProcessEnv}
 */
export function appEnvironment({
  baseEnv,
  dataDir,
  apiPort,
  webUrl,
  mongodbUri,
  redisUrl,
  smtpUrl,
  demoMode,
  runSettings,
}) {
  return {
    ...baseEnv,
    MAIL_TO: baseEnv.MAIL_TO || LOCAL_AGENCY_INBOX,
    ...runSettings,
    DATA_DIR: dataDir,
    // Uploaded images beside the rest of this installation's data, unless set.
    MEDIA_DIR: baseEnv.MEDIA_DIR || join(dataDir, 'media'),
    TRUST_PROXY: WEB_PROXY_ADDRESS,
    API_PORT: String(apiPort),
    CORS_ORIGIN: webUrl,
    // The address the website really took (another port when the usual one
    // is busy): page addresses and links in mail name it, unless set.
    SITE_URL: baseEnv.SITE_URL || webUrl,
    MONGODB_URI: mongodbUri,
    REDIS_URL: redisUrl,
    ...(smtpUrl ? { SMTP_URL: smtpUrl } : {}),
    DEMO_MODE: String(demoMode && baseEnv.NODE_ENV !== 'production'),
  };
}
