// @ts-check
import { connect } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

export { sleep };

const POLL_INTERVAL_MS = 150;

/**
 * @param {number} port
 * @param {string} host
 * @returns {Promise<boolean>}
 */
function canConnect(port, host) {
  return new Promise((resolve) => {
    const socket = connect({ port, host });
    const finish = (/** @type {boolean} */ ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1000, () => finish(false));
    socket.once('connect', () => finish(true));
    socket.once('error', () => finish(false));
  });
}

/**
 * @typedef {object} WaitOptions
 * @property {number} [timeoutMs] give up after this long (default 30 s)
 * @property {AbortSignal} [signal] stop waiting early (e.g. the process died)
 */

/**
 * Polls `check` until it returns true; throws `timeoutMessage` when time is up.
 * @param {() => Promise<boolean>} check
 * @param {string} timeoutMessage
 * @param {WaitOptions} options
 */
export async function waitUntil(check, timeoutMessage, { timeoutMs = 30_000, signal } = {}) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    signal?.throwIfAborted();
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(`${timeoutMessage} (after ${timeoutMs} ms)`);
    await sleep(POLL_INTERVAL_MS);
  }
}

/**
 * Resolves once something accepts TCP connections on host:port.
 * @param {number} port
 * @param {WaitOptions & { host?: string }} [options]
 */
export async function waitForTcpPort(port, { host = '127.0.0.1', ...options } = {}) {
  await waitUntil(() => canConnect(port, host), `Nothing listens on ${host}:${port}`, options);
}

/**
 * Resolves once `url` answers with a status that `isReady` accepts (by
 * default: any answer below 500).
 * @param {string} url
 * @param {WaitOptions & { isReady?: (status: number) => boolean }} [options]
 */
export async function waitForHttpUrl(url, { isReady = (status) => status < 500, ...options } = {}) {
  /** @type {string} */
  let lastOutcome = 'no answer';
  const answersReady = async () => {
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2000) });
      await response.body?.cancel();
      lastOutcome = `HTTP ${response.status}`;
      return isReady(response.status);
    } catch (error) {
      lastOutcome = error instanceof Error ? error.message : String(error);
      return false;
    }
  };
  try {
    await waitUntil(answersReady, `${url} is not ready`, options);
  } catch (error) {
    if (error instanceof Error && !options.signal?.aborted) {
      error.message += `; last outcome: ${lastOutcome}`;
    }
    throw error;
  }
}
