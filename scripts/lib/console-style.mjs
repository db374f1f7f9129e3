// @ts-check
/**
 * ANSI colours for terminal output, switched off when the stream is not a
 * terminal or NO_COLOR is set (https://no-color.org), forced on by FORCE_COLOR.
 */

/** @typedef {'red' | 'green' | 'yellow' | 'blue' | 'magenta' | 'cyan' | 'gray' | 'bold'} ColorName */

/** @type {Record<ColorName, string>} */
const CODES = {
  red: '31',
  green: '32',
  yellow: '33',
  blue: '34',
  magenta: '35',
  cyan: '36',
  gray: '90',
  bold: '1',
};

/** Colours assigned to prefixed child outputs, in turn. */
export const PREFIX_COLORS = /** @type {const} */ (['cyan', 'magenta', 'blue', 'yellow', 'green']);

/** @param {NodeJS.WriteStream} [stream] */
export function supportsColor(stream = process.stdout) {
  if (process.env.NO_COLOR) return false;
  if (process.env.FORCE_COLOR && process.env.FORCE_COLOR !== '0') return true;
  return Boolean(stream.isTTY);
}

/**
 * @param {ColorName} color
 * @param {string} text
 * @param {NodeJS.WriteStream} [stream] the stream the text is written to
 */
export function paint(color, text, stream = process.stdout) {
  return supportsColor(stream) ? `\u001b[${CODES[color]}m${text}\u001b[0m` : text;
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
