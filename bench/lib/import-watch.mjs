// @ts-check
/**
 * What bench:import reads while an import runs, as the dashboard reads it:
 * the import through the API, asked every few hundred milliseconds. It keeps
 * the moments its visible progress (the rows read) changed, so the bench can
 * say how long the screen went without moving.
 */

/**
 * @typedef {{ status: string, counts: { read: number, created: number } }} ImportSeen
 * @typedef {{ at: number, read: number }} ProgressStep
 */

const ENDED = ['done', 'failed', 'cancelled'];

/**
 * Polls `read()` until the import ends, noting each change of its rows read.
 * `onPoll` sees every answer (the kill step uses it to act at half-way).
 * @param {() => Promise<ImportSeen>} read
 * @param {{ everyMs: number, timeoutMs: number, onPoll?: (seen: ImportSeen) => Promise<void> }} options
 * @returns {Promise<{ last: ImportSeen, steps: ProgressStep[], startedAt: number, endedAt: number }>}
 */
export async function watchImport(read, { everyMs, timeoutMs, onPoll }) {
  const startedAt = performance.now();
  /** @type {ProgressStep[]} */
  const steps = [];
  let lastRead = 0;
  for (;;) {
    const seen = await read();
    const now = performance.now();
    if (seen.counts.read !== lastRead) {
      steps.push({ at: now, read: seen.counts.read });
      lastRead = seen.counts.read;
    }
    if (onPoll) await onPoll(seen);
    if (ENDED.includes(seen.status)) return { last: seen, steps, startedAt, endedAt: now };
    if (now - startedAt > timeoutMs) throw new Error(`the import did not end in ${timeoutMs} ms`);
    await new Promise((done) => setTimeout(done, everyMs));
  }
}

/**
 * The longest time the visible progress stood still: between the start
 * request and the first rows read, between two changes, and between the
 * last change and the end. Also where it happened (rows read before it).
 * @param {{ steps: ProgressStep[], startedAt: number, endedAt: number }} watched
 */
export function longestProgressGap({ steps, startedAt, endedAt }) {
  let longest = { seconds: 0, afterRows: 0 };
  let previous = { at: startedAt, read: 0 };
  for (const step of [...steps, { at: endedAt, read: steps.at(-1)?.read ?? 0 }]) {
    const seconds = (step.at - previous.at) / 1000;
    if (seconds > longest.seconds) longest = { seconds, afterRows: previous.read };
    previous = step;
  }
  return { ...longest, updates: steps.length };
}
