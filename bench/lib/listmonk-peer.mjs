// @ts-check
/**
 * listmonk, the peer `npm run bench:mail -- --peer` compares campaign sends
 * with (its folder: LISTMONK_PEER_DIR, by default ../shared/peers/listmonk
 * beside the repository; its README says how it runs). The peer's own SMTP
 * sink (sink.js: smtp-server on 127.0.0.1:12525, its figures on
 * http://127.0.0.1:12526/stats) is started here, before the peer's run.sh,
 * which then uses it and leaves it running: the campaign is then sent into
 * the very same process, so both are received by the same code at the same
 * cost, and the sink's own CPU is read from /proc for both.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { until } from './bench-steps.mjs';
import { cpuSecondsOf } from './processes.mjs';

const root = resolve(import.meta.dirname, '..', '..');
/** The ports run.sh and peer.py expect the sink on. */
const SMTP_PORT = 12525;
const CONTROL_URL = 'http://127.0.0.1:12526';
/** Where run.sh works (its own default); peer.py reads the sink's pid there. */
const PEER_WORK_DIR = process.env.PEER_DIR ?? '/tmp/listmonk-peer';

/**
 * The figures peer.py prints on its `RESULT {json}` line that the bench uses.
 * @typedef {{
 *   n: number, received_total: number, rcpt_unique: number, rcpt_duplicates: number,
 *   avg_msg_bytes: number | null, start_to_first_s: number | null, start_to_last_s: number | null,
 *   first_to_last_s: number | null, listmonk_cpu_s: number, postgres_cpu_s: number,
 *   sink_cpu_s: number, listmonk_vmhwm_kb: number, campaign_status: string,
 * }} PeerResult
 */

/** The peer's folder, from LISTMONK_PEER_DIR or beside the repository. */
export const peerDir = () =>
  resolve(process.env.LISTMONK_PEER_DIR ?? join(root, '..', 'shared', 'peers', 'listmonk'));

/**
 * Why the peer cannot run here, or null when it can: its folder and files,
 * root (run.sh runs Postgres as the postgres user), and the sink's ports free.
 * @param {string} dir
 * @returns {Promise<string | null>}
 */
export async function peerUnavailable(dir) {
  for (const file of ['run.sh', 'sink/sink.js', 'listmonk']) {
    if (!existsSync(join(dir, file)))
      return `listmonk peer not found (${join(dir, file)} is missing)`;
  }
  if (process.getuid?.() !== 0) return 'the listmonk peer needs root (it runs its own Postgres)';
  const busy = await fetch(`${CONTROL_URL}/stats`).then(
    () => true,
    () => false,
  );
  if (busy) return `a sink already answers on ${CONTROL_URL} (another peer run?)`;
  return null;
}

/**
 * @typedef {{ accepted: number, firstAt: number, lastAt: number, cpuMicros: number,
 *   bytes: number | null, rcpt?: [string, number][], unique?: number, duplicates?: number }} SinkReport
 */

/**
 * What the peer's sink answers on /stats that the bench reads.
 * @typedef {{ messages: number, first_ms: number | null, last_ms: number | null, bytes: number,
 *   rcpts_unique: number, rcpt_duplicates: number }} PeerSinkStats
 */

/**
 * Starts the peer's sink.js (smtp-server from the repository's node_modules)
 * on the ports run.sh expects; reports as the bench's own sink does.
 */
export async function startPeerSink() {
  const statsFile = join(PEER_WORK_DIR, 'sink', 'stats.json');
  mkdirSync(join(PEER_WORK_DIR, 'sink'), { recursive: true });
  const child = spawn(
    process.execPath,
    [join(peerDir(), 'sink', 'sink.js'), String(SMTP_PORT), '12526', statsFile],
    {
      env: { ...process.env, NODE_PATH: join(root, 'node_modules') },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  // peer.py reads the sink's CPU through this pid file.
  writeFileSync(join(PEER_WORK_DIR, 'sink.pid'), `${child.pid}\n`);
  await until(
    () =>
      fetch(`${CONTROL_URL}/stats`).then(
        (response) => response.ok,
        () => false,
      ),
    10_000,
    100,
  );
  let cpuAtReset = cpuSecondsOf(child.pid);
  return {
    url: `smtp://127.0.0.1:${SMTP_PORT}`,
    name: "listmonk's sink.js (smtp-server)",
    /** @returns {Promise<SinkReport>} */
    async report() {
      const stats = /** @type {PeerSinkStats} */ (
        await fetch(`${CONTROL_URL}/stats`).then((response) => response.json())
      );
      return {
        accepted: stats.messages,
        firstAt: stats.first_ms ?? 0,
        lastAt: stats.last_ms ?? 0,
        cpuMicros: (cpuSecondsOf(child.pid) - cpuAtReset) * 1e6,
        bytes: stats.bytes,
        unique: stats.rcpts_unique,
        duplicates: stats.rcpt_duplicates,
      };
    },
    async reset() {
      await fetch(`${CONTROL_URL}/reset`, { method: 'POST' });
      cpuAtReset = cpuSecondsOf(child.pid);
    },
    async close() {
      if (child.exitCode !== null) return;
      const exited = new Promise((done) => child.once('exit', done));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/**
 * Runs the peer's run.sh: one listmonk campaign of `recipients` into the sink
 * started above (it stops its Postgres and listmonk, not the sink). Its
 * summary line is printed; resolves to its RESULT figures.
 * @param {number} recipients
 * @returns {Promise<PeerResult>}
 */
export function runListmonkCampaign(recipients) {
  const child = spawn('bash', [join(peerDir(), 'run.sh'), String(recipients), 'max', 'richtext'], {
    env: { ...process.env, PEER_DIR: PEER_WORK_DIR },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  return new Promise((done, fail) => {
    child.on('exit', (code) => {
      const summary = output.split('\n').find((line) => line.startsWith('==>'));
      const result = output.split('\n').find((line) => line.startsWith('RESULT '));
      if (code !== 0 || !result) {
        fail(new Error(`listmonk's run.sh exited ${code}:\n${output.slice(-2000)}`));
        return;
      }
      if (summary) console.log(`listmonk: ${summary.slice(4)}`);
      done(JSON.parse(result.slice('RESULT '.length)));
    });
  });
}
