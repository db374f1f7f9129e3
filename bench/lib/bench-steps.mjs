// @ts-check
/** The steps every service-starting bench shares: waiting, targets, the table, cleaning up. */

/**
 * Resolves once `check` answers true, asking every `everyMs`; throws after `timeoutMs`.
 * @param {() => Promise<boolean>} check @param {number} timeoutMs @param {number} everyMs
 */
export async function until(check, timeoutMs, everyMs = 200) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((done) => setTimeout(done, everyMs));
  }
  throw new Error(`gave up after ${timeoutMs} ms`);
}

/** A bench's targets: `check` says whether one is met and keeps the names of those missed. */
export function targetBook() {
  /** @type {string[]} */
  const missed = [];
  return {
    missed,
    /** @param {string} name @param {boolean} met @param {string} target */
    check(name, met, target) {
      if (!met) missed.push(name);
      return `target ${target}: ${met ? 'met' : 'MISSED'}`;
    },
  };
}

/**
 * Prints a title and its rows (what, figure, note) as a table.
 * @param {string} title @param {string[][]} rows
 */
export function printTable(title, rows) {
  console.log(`\n${title}\n`);
  console.table(rows.map(([what, figure, note]) => ({ what, figure, note })));
}

/**
 * Prints the bench's title, its rows as a table, and which targets it missed.
 * @param {string} title @param {string[][]} rows @param {readonly string[]} missed
 */
export function printReport(title, rows, missed) {
  printTable(title, rows);
  console.log(missed.length === 0 ? 'targets: all met' : `targets MISSED: ${missed.join(', ')}`);
}

/**
 * Runs the cleanups last first, each even when one before it failed.
 * @param {(() => unknown)[]} cleanups
 */
export async function runCleanups(cleanups) {
  for (const step of cleanups.splice(0).reverse()) {
    try {
      await step();
    } catch {
      // Cleaning up after a failure: keep going.
    }
  }
}

/**
 * Runs a bench's main; any error is printed and ends the process with 1.
 * @param {() => Promise<void>} main
 */
export function runBench(main) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}

/**
 * Prints a cost curve: each figure at 1x and at `scale` x side by side, and
 * how much it grew (1.00x: it did not grow with the size).
 * @param {string} title @param {number} scale
 * @param {Record<string, number>} small @param {Record<string, number>} large
 */
export function printCostCurve(title, scale, small, large) {
  console.log(`\n${title}\n`);
  console.table(
    Object.entries(small).map(([figure, x1]) => {
      const xN = large[figure] ?? Number.NaN;
      return { figure, '1x': x1, [`${scale}x`]: xN, growth: x1 ? `${(xN / x1).toFixed(2)}x` : '-' };
    }),
  );
}

/**
 * A whole-number option from 1 (`fallback` when absent, as `--scale` is
 * without a curve); exits with a message naming it otherwise.
 * @param {string} name @param {string | undefined} value @param {number} [fallback]
 */
export function wholeNumberOption(name, value, fallback = 1) {
  const number = value === undefined ? fallback : Number(value);
  if (!Number.isInteger(number) || number < 1) {
    console.error(`--${name} takes a whole number from 1`);
    process.exit(1);
  }
  return number;
}
