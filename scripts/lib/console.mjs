// @ts-check
/** Terminal output of the scripts: colours, boxes and how a fatal error reads. */
import { styleText } from 'node:util';

/** @typedef {Parameters<typeof styleText>[0]} Style */

/**
 * Colours only where the stream shows them: styleText checks the stream is a
 * terminal and honours NO_COLOR and FORCE_COLOR.
 * @param {Style} style
 * @param {string} text
 */
export function paint(style, text) {
  return styleText(style, text, { stream: process.stdout });
}

/**
 * Draws a box around lines (padding by visible length, so no colours inside).
 * @param {string[]} lines
 */
export function boxed(lines) {
  const width = Math.max(...lines.map((line) => line.length));
  const border = `+${'-'.repeat(width + 2)}+`;
  return [border, ...lines.map((line) => `| ${line.padEnd(width)} |`), border].join('\n');
}

/**
 * A problem the user fixes by installing something or setting a variable.
 * Its message says exactly that; no stack trace is shown.
 */
export class SetupError extends Error {
  /** @param {string} message */
  constructor(message) {
    super(message);
    this.name = 'SetupError';
  }
}

/**
 * One line for a SetupError, the message plus stack for anything unexpected.
 * @param {unknown} error
 */
export function reportFatalError(error) {
  if (error instanceof SetupError) console.error(error.message);
  else console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
}
/**
 * Runs a command's `main` and exits with the code it answers; an error is
 * reported as above and exits 1. Exits at once: the command stopped its
 * servers, and stray handles must not keep the process alive.
 * @param {() => Promise<number>} main
 */
export async function runCommand(main) {
  try {
    process.exitCode = await main();
  } catch (error) {
    reportFatalError(error);
    process.exitCode = 1;
  }
  process.exit(process.exitCode);
}

/**
 * Hides the password of a connection string before it is printed.
 * @param {string} url
 */
export function redactCredentials(url) {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/[^:/?#@]*):[^@/?#]*@/i, '$1:***@');
}
