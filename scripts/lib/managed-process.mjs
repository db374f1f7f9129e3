// @ts-check
import { spawn } from 'node:child_process';
import { constants } from 'node:os';
import { createInterface } from 'node:readline';
import { paint, PREFIX_COLORS } from './console-style.mjs';

/** @typedef {import('./console-style.mjs').ColorName} ColorName */

/**
 * @typedef {object} ExitInfo
 * @property {number | null} code
 * @property {NodeJS.Signals | null} signal
 * @property {Error} [error] set when the process could not be spawned at all
 */

/**
 * @typedef {object} ManagedProcessOptions
 * @property {string} name shown as `[name]` before every output line
 * @property {string} command
 * @property {string[]} [args]
 * @property {string} [cwd]
 * @property {NodeJS.ProcessEnv} [env] the whole environment (default: process.env)
 * @property {ColorName} [color] colour of the prefix (default: next in turn)
 * @property {boolean} [echo] print the output lines (default true; always kept for errors)
 * @property {(line: string) => boolean} [isNoise] lines not worth printing (still kept for errors)
 */

/**
 * @typedef {object} ManagedProcess
 * @property {string} name
 * @property {number | undefined} pid
 * @property {Promise<ExitInfo>} exited resolves when the process is gone
 * @property {AbortSignal} exitSignal aborted when the process exits
 * @property {() => boolean} isRunning
 * @property {() => string[]} recentOutput the last output lines, oldest first
 * @property {(graceMs?: number) => Promise<ExitInfo>} stop SIGTERM, then SIGKILL after graceMs
 */

const RECENT_LINES_KEPT = 40;
const DEFAULT_GRACE_MS = 5000;

/** Every process started here and still running; killed if this process dies. */
/** @type {Set<ManagedProcess>} */
const running = new Set();
let colorTurn = 0;
let lastResortCleanupInstalled = false;

/**
 * Sends a signal to the child's whole process group (children run in their
 * own group so a terminal Ctrl-C reaches only us, and we stop them in order).
 * @param {number | undefined} pid
 * @param {NodeJS.Signals} signal
 */
function signalProcessGroup(pid, signal) {
  if (!pid) return;
  try {
    process.kill(-pid, signal);
  } catch {
    // Already gone.
  }
}

/**
 * If nobody else handles SIGINT/SIGTERM/SIGHUP (e.g. inside jest's global
 * setup), terminate our children and then die of the signal as Node would;
 * when the host handles the signal itself (start.mjs, Playwright), stay out
 * of its way. On any exit, whatever is still running is killed.
 */
function installLastResortCleanup() {
  if (lastResortCleanupInstalled) return;
  lastResortCleanupInstalled = true;
  process.on('exit', () => {
    for (const child of running) signalProcessGroup(child.pid, 'SIGKILL');
  });
  for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM', 'SIGHUP'])) {
    const handler = () => {
      if (process.listenerCount(signal) > 1) return;
      for (const child of running) signalProcessGroup(child.pid, 'SIGTERM');
      process.removeListener(signal, handler);
      process.kill(process.pid, signal);
    };
    process.on(signal, handler);
  }
}

/**
 * @param {ExitInfo} info
 */
export function describeExit(info) {
  if (info.error) return `could not start: ${info.error.message}`;
  if (info.signal) return `was killed by ${info.signal}`;
  return `exited with code ${info.code}`;
}

/**
 * Spawns a long-running process whose output lines are printed with a
 * coloured `[name]` prefix.
 * @param {ManagedProcessOptions} options
 * @returns {ManagedProcess}
 */
export function startManagedProcess({
  name,
  command,
  args = [],
  cwd,
  env = process.env,
  color,
  echo = true,
  isNoise = () => false,
}) {
  installLastResortCleanup();
  const prefixColor = color ?? PREFIX_COLORS[colorTurn++ % PREFIX_COLORS.length] ?? 'cyan';
  const prefix = paint(prefixColor, `[${name}]`);
  /** @type {string[]} */
  const recent = [];
  const exitController = new AbortController();

  const child = spawn(command, args, {
    cwd,
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });

  /** @param {string} line */
  const keepLine = (line) => {
    recent.push(line);
    if (recent.length > RECENT_LINES_KEPT) recent.shift();
    if (echo && !isNoise(line)) process.stdout.write(`${prefix} ${line}\n`);
  };
  for (const stream of [child.stdout, child.stderr]) {
    createInterface({ input: stream, crlfDelay: Infinity }).on('line', keepLine);
  }

  /** @type {Promise<ExitInfo>} */
  const exited = new Promise((resolve) => {
    child.once('error', (error) => {
      keepLine(`${command}: ${error.message}`);
      resolve({ code: null, signal: null, error });
    });
    child.once('exit', (code, signal) => resolve({ code, signal }));
  });

  /** @type {ManagedProcess} */
  const managed = {
    name,
    pid: child.pid,
    exited,
    exitSignal: exitController.signal,
    isRunning: () => !exitController.signal.aborted,
    recentOutput: () => [...recent],
    stop: async (graceMs = DEFAULT_GRACE_MS) => {
      if (!managed.isRunning()) return exited;
      signalProcessGroup(child.pid, 'SIGTERM');
      const timer = setTimeout(() => signalProcessGroup(child.pid, 'SIGKILL'), graceMs);
      const info = await exited;
      clearTimeout(timer);
      // Whatever the child left behind in its group goes too.
      signalProcessGroup(child.pid, 'SIGKILL');
      return info;
    },
  };
  running.add(managed);
  void exited.then(() => {
    running.delete(managed);
    exitController.abort(new Error(`${name} exited`));
  });
  return managed;
}

/**
 * Runs `waitForReady` until it resolves; fails early, with the last output
 * lines of the process that died, if any of `watched` exits first.
 * @param {ManagedProcess | ManagedProcess[]} watched
 * @param {(signal: AbortSignal) => Promise<void>} waitForReady
 * @param {string} [what] what is awaited, for the error message (default: the first process)
 */
export async function waitUntilReady(watched, waitForReady, what) {
  const processes = Array.isArray(watched) ? watched : [watched];
  const subject = what ?? processes[0]?.name ?? 'process';
  try {
    await waitForReady(AbortSignal.any(processes.map((managed) => managed.exitSignal)));
  } catch (error) {
    const dead = processes.find((managed) => !managed.isRunning());
    const reason = dead
      ? `${dead.name} ${describeExit(await dead.exited)}`
      : error instanceof Error
        ? error.message
        : String(error);
    const culprit = dead ?? processes[0];
    const output = culprit?.recentOutput().slice(-15).join('\n  ');
    throw new Error(
      `${subject} did not become ready: ${reason}` +
        (culprit && output ? `\nLast output of ${culprit.name}:\n  ${output}` : ''),
      { cause: error },
    );
  }
}

/**
 * Resolves with the first of these processes to exit.
 * @param {ManagedProcess[]} processes
 * @returns {Promise<{ managed: ManagedProcess, info: ExitInfo }>}
 */
export function firstToExit(processes) {
  return Promise.race(
    processes.map((managed) => managed.exited.then((info) => ({ managed, info }))),
  );
}

/**
 * Stops processes one after the other, in the order given.
 * @param {ManagedProcess[]} processes
 */
export async function stopInOrder(processes) {
  for (const managed of processes) await managed.stop();
}

/**
 * Runs a command to completion with the terminal's output streams, in a
 * process group of its own; resolves with its exit code. Aborting `signal`
 * sends SIGTERM to the whole group (npx -> sh -> jest included), then SIGKILL
 * after `graceMs`. Whatever the command leaves running in its group is killed
 * when it exits.
 * @param {string} command
 * @param {string[]} args
 * @param {{ cwd?: string, env?: NodeJS.ProcessEnv, signal?: AbortSignal, graceMs?: number }} [options]
 * @returns {Promise<number>}
 */
export function runCommand(
  command,
  args,
  { cwd, env = process.env, signal, graceMs = 10_000 } = {},
) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd, env, stdio: 'inherit', detached: true });
    /** @type {NodeJS.Timeout | undefined} */
    let killTimer;
    const terminate = () => {
      signalProcessGroup(child.pid, 'SIGTERM');
      killTimer = setTimeout(() => signalProcessGroup(child.pid, 'SIGKILL'), graceMs);
    };
    const killOnExit = () => signalProcessGroup(child.pid, 'SIGKILL');
    process.on('exit', killOnExit);
    if (signal?.aborted) terminate();
    else signal?.addEventListener('abort', terminate, { once: true });

    /** @param {number} exitCode */
    const finish = (exitCode) => {
      clearTimeout(killTimer);
      signal?.removeEventListener('abort', terminate);
      process.removeListener('exit', killOnExit);
      signalProcessGroup(child.pid, 'SIGKILL');
      resolve(exitCode);
    };
    child.once('error', (error) => {
      console.error(`${command}: ${error.message}`);
      finish(127);
    });
    child.once('exit', (code, exitSignal) =>
      finish(code ?? (exitSignal ? 128 + constants.signals[exitSignal] : 1)),
    );
  });
}
