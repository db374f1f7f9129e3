// @ts-check
/**
 * What the bench scripts share to run the stack's own processes: a free
 * loopback port, and a built entry point (backend or worker) started as a
 * child process whose peak memory can be read and which stops politely.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import getPort from 'get-port';

const root = resolve(import.meta.dirname, '..', '..');

/** A free loopback port. @returns {Promise<number>} */
export const freePort = () => getPort({ host: '127.0.0.1' });

/**
 * CPU seconds a process has used so far (user + system), from /proc; 0 once it is gone.
 * @param {number | undefined} pid
 */
export function cpuSecondsOf(pid) {
  if (!pid || !existsSync(`/proc/${pid}/stat`)) return 0;
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ');
  return (Number(fields?.[11] ?? 0) + Number(fields?.[12] ?? 0)) / 100;
}

/**
 * The machine's CPU time so far, all cores, and how much of it the host gave
 * to others (`steal`, from /proc/stat): on a shared virtual machine the
 * rates of one run move with it. Null where /proc/stat is not there.
 * @returns {{ steal: number, total: number } | null}
 */
export function hostCpuTimes() {
  if (!existsSync('/proc/stat')) return null;
  const [, ...ticks] = (readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '')
    .trim()
    .split(/\s+/);
  // user nice system idle iowait irq softirq steal: guest time is already within user.
  const counted = ticks.slice(0, 8).map(Number);
  return { steal: counted[7] ?? 0, total: counted.reduce((sum, tick) => sum + tick, 0) };
}

/**
 * The share of the machine's CPU time the host took between two readings, in %.
 * @param {ReturnType<typeof hostCpuTimes>} before @param {ReturnType<typeof hostCpuTimes>} after
 */
export function stolenPercent(before, after) {
  if (!before || !after || after.total === before.total) return null;
  return (100 * (after.steal - before.steal)) / (after.total - before.total);
}

/**
 * A process's peak resident set (VmHWM), in MB.
 * @param {number | undefined} pid
 */
export function peakRssMbOf(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 1024;
}

/**
 * A process's resident set now (VmRSS), in MB.
 * @param {number | undefined} pid
 */
export function rssMbOf(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 1024;
}

/**
 * Starts a process's peak over from its current resident set (Linux's
 * clear_refs), so a later peak is that of what ran since.
 * @param {number | undefined} pid
 */
export function resetPeakRssOf(pid) {
  writeFileSync(`/proc/${pid}/clear_refs`, '5');
}

/**
 * The processes a process started (from /proc, each of its threads' children).
 * @param {number | undefined} pid @returns {number[]}
 */
export function childProcessesOf(pid) {
  if (!pid || !existsSync(`/proc/${pid}/task`)) return [];
  return readdirSync(`/proc/${pid}/task`).flatMap((tid) =>
    readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8')
      .split(/\s+/)
      .filter(Boolean)
      .map(Number),
  );
}

/**
 * Starts `node <script>` (a path from the repository's root) with `env`; its
 * stderr is printed only if it exits with an error the bench did not cause.
 * @param {string} name @param {string} script @param {NodeJS.ProcessEnv} env
 */
export function startNode(name, script, env) {
  // BENCH_CPU_PROF_DIR=<dir>: each process writes a V8 CPU profile there when it stops.
  const profile = process.env.BENCH_CPU_PROF_DIR
    ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF_DIR}`]
    : [];
  const child = spawn(process.execPath, [...profile, join(root, script)], {
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let errors = '';
  child.stderr.on('data', (chunk) => (errors += chunk));
  child.on('exit', (code, signal) => {
    if (child.killed) return;
    // A process killed by a signal (the kernel's OOM killer, a V8 abort) has no exit code.
    if (code) console.error(`${name} exited ${code}: ${errors}`);
    else if (signal) console.error(`${name} was killed by ${signal}: ${errors}`);
  });
  return {
    pid: child.pid,
    /** The process's peak resident set (VmHWM), in MB. */
    peakRssMb: () => peakRssMbOf(child.pid),
    /** Starts the peak over, so a later peak is that of what ran since. */
    resetPeakRss: () => resetPeakRssOf(child.pid),
    /** CPU seconds the process has used so far (user + system). */
    cpuSeconds: () => cpuSecondsOf(child.pid),
    async stop() {
      // Already gone: its 'exit' was emitted before this wait could hear it.
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((done) => child.once('exit', done));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/**
 * Starts counting some processes' CPU; the function it answers reads each
 * one's CPU seconds since, by name.
 * @param {readonly { name: string, pid?: number }[]} processes
 * @returns {() => Record<string, number>}
 */
export function cpuSince(processes) {
  const before = processes.map(({ pid }) => cpuSecondsOf(pid));
  return () =>
    Object.fromEntries(
      processes.map(({ name, pid }, index) => [name, cpuSecondsOf(pid) - (before[index] ?? 0)]),
    );
}

/**
 * The first process below `pid` (children, their children...) whose command
 * line holds `text`; undefined when none does.
 * @param {number | undefined} pid @param {string} text @returns {number | undefined}
 */
export function descendantRunning(pid, text) {
  for (const child of childProcessesOf(pid)) {
    const commandLine = existsSync(`/proc/${child}/cmdline`)
      ? readFileSync(`/proc/${child}/cmdline`, 'utf8')
      : '';
    if (commandLine.includes(text)) return child;
    const below = descendantRunning(child, text);
    if (below) return below;
  }
  return undefined;
}
