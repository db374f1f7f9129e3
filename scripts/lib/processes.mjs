// @ts-check
/**
 * Long-running processes of the local stack (servers, the API, the worker,
 * the web) on execa, with `[name]`-prefixed output, readiness waits on
 * wait-on, and stops that escalate to SIGKILL.
 */
import { execa } from 'execa';
import waitOn from 'wait-on';
import { paint, SetupError } from './console.mjs';

/** @typedef {import('./console.mjs').Style} Style */
/**
 * @typedef {object} Service
 * @property {string} name
 * @property {number | undefined} pid undefined when it could not be started
 * @property {Promise<string>} exited settles with how the process ended
 * @property {() => string[]} recentOutput its last output lines, oldest first
 * @property {() => Promise<void>} stop SIGTERM, then SIGKILL after a grace period
 */

const RECENT_LINES_KEPT = 40;
const STOP_GRACE_MS = 5000;
/** @type {Set<import('execa').ResultPromise>} */
const running = new Set();
// Services run in process groups of their own (so a terminal's Ctrl-C
// reaches only us and we stop them in order); whatever is left when we exit goes.
process.on('exit', () => running.forEach((subprocess) => subprocess.kill('SIGKILL')));

/**
 * @param {{ name: string, command: string, args?: string[], cwd?: string, env?: NodeJS.ProcessEnv,
 *   style?: Style, echo?: boolean, isNoise?: (line: string) => boolean }} options
 * @returns {Service}
 */
export function startService(options) {
  const { name, echo = true, isNoise = () => false } = options;
  const prefix = paint(options.style ?? 'cyan', `[${name}]`);
  /** @type {string[]} */
  const recent = [];
  /** @param {unknown} chunk a line, as execa splits the output */
  const keepLine = function* (chunk) {
    const line = String(chunk);
    recent.push(line);
    if (recent.length > RECENT_LINES_KEPT) recent.shift();
    if (echo && !isNoise(line)) yield `${prefix} ${line}`;
  };
  /** @type {import('execa').Options['stdout']} */
  const output = [keepLine, 'inherit'];
  const subprocess = execa(options.command, options.args ?? [], {
    cwd: options.cwd,
    env: options.env,
    detached: true,
    stdin: 'ignore',
    stdout: output,
    stderr: output,
    buffer: false,
    reject: false,
    forceKillAfterDelay: STOP_GRACE_MS,
  });
  running.add(subprocess);
  const exited = subprocess.then((result) => {
    running.delete(subprocess);
    if (result.failed && result.exitCode === undefined && !result.signal)
      return `could not start: ${result.shortMessage ?? 'unknown error'}`;
    return result.signal ? `was killed by ${result.signal}` : `exited with code ${result.exitCode}`;
  });
  return {
    name,
    pid: subprocess.pid,
    exited,
    recentOutput: () => [...recent],
    stop: async () => {
      subprocess.kill('SIGTERM');
      await exited;
    },
  };
}

/**
 * Waits until every resource answers (wait-on syntax: `tcp:host:port`,
 * `http-get://...` for a 2xx); fails early with the last output lines of a
 * watched service that exits first.
 * @param {string[]} resources
 * @param {Service[]} watched
 * @param {number} [timeoutMs]
 */
export async function waitUntilReady(resources, watched, timeoutMs = 60_000) {
  const diedFirst = watched.map((service) =>
    service.exited.then((how) => Promise.reject(failure(service, how))),
  );
  const ready = waitOn({ resources, timeout: timeoutMs, interval: 100, window: 0, proxy: false });
  try {
    await Promise.race([ready, ...diedFirst]);
  } catch (error) {
    if (error instanceof ServiceError) throw error;
    const culprit = watched[0];
    const reason = `${resources.join(', ')} not ready after ${timeoutMs / 1000} s`;
    throw culprit ? failure(culprit, reason) : new Error(reason);
  } finally {
    diedFirst.forEach((promise) => promise.catch(() => undefined));
  }
}

/** A service that died or never answered: its message carries its last output. */
class ServiceError extends SetupError {}

/**
 * @param {Service} service
 * @param {string} reason
 */
function failure(service, reason) {
  const output = service.recentOutput().slice(-15).join('\n  ');
  return new ServiceError(
    `${service.name} ${reason}` + (output ? `\nLast output of ${service.name}:\n  ${output}` : ''),
  );
}

/**
 * Stops services one after the other, in the order given, even if one fails.
 * @param {Service[]} services
 */
export async function stopAll(services) {
  for (const service of services) await service.stop().catch(() => undefined);
}
